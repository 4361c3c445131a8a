/**
 * What a message offers to do next, such as "Ver carrito": a page of this site, and the label's
 * translation key (the spec's default label, "Acción", when it names none).
 */
export interface FlashAction {
  href: string;
  labelKey?: string;
}

/** A one-time message for the next page: a translation key and its values, never free text. */
export interface Flash {
  kind: "success" | "error" | "info";
  key: string;
  values?: Record<string, string | number>;
  action?: FlashAction;
}

/** Spec §9: a toast's action is labelled "Action" unless it says otherwise; here, "Acción". */
export const DEFAULT_ACTION_LABEL_KEY = "flash.action";

/** The translation key of an action's label. */
export function actionLabelKey(action: FlashAction): string {
  return action.labelKey ?? DEFAULT_ACTION_LABEL_KEY;
}
