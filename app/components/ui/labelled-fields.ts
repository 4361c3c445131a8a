import type { FieldMetadata } from "@conform-to/react";

/** Conform's metadata of one field, whatever its value's type. */
export type AnyFieldMetadata = FieldMetadata<unknown> | FieldMetadata<string | undefined>;

/** One field of a form as the page shows it: conform's metadata and the name a customer reads. */
export interface LabelledField<Meta extends AnyFieldMetadata = AnyFieldMetadata> {
  meta: Meta;
  label: string;
}

/**
 * A form's fields, listed once, in the order the page shows them: each field is drawn from its
 * entry (`<Field {...field.email} type="email" />`, `<ChoiceGroup {...field.amount} …/>`), and the
 * error summary links the wrong ones from the same list (`summary`), in that order and under the
 * same names. A checkbox's entry names it in the summary; beside the box it reads its sentence. A
 * field left out (the hidden form key) is in neither.
 */
export function labelFields<
  Metas extends { [Name in keyof Metas]: AnyFieldMetadata },
  Name extends keyof Metas & string,
>(metas: Metas, labels: Record<Name, string>) {
  const field = {} as { [K in Name]: LabelledField<Metas[K]> };
  const summary: LabelledField[] = [];
  for (const name of Object.keys(labels) as Name[]) {
    const entry = { meta: metas[name], label: labels[name] };
    field[name] = entry;
    summary.push(entry);
  }
  return { field, summary };
}
