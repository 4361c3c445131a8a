import * as z from "zod";
import "~/lib/zod-without-eval";
import { hasControlCharacters } from "~/lib/control-characters";
import { checkRfc, normalizeRfc, type RfcFault, type RfcKind } from "~/registration/rfc";
import {
  CARD_KINDS,
  isRegimenFiscal,
  isUsoCfdi,
  regimenAllowsKind,
  usoAllowedFor,
  type CardKind,
  type RegimenFiscal,
  type UsoCfdi,
} from "./sat-catalogs";

/**
 * The receiver's fiscal data as /facturacion asks for it (issue 29), the same schema on the server
 * and in the browser: the RFC (checked part by part, app/registration/rfc.ts), the name or razón
 * social as the Constancia de Situación Fiscal prints it, the régimen the RFC's kind may hold, the
 * código postal fiscal, the use of the CFDI that régimen allows, the e-mail the invoice goes to,
 * and, for a card payment, whether the card was a credit or a debit card. Every field is checked
 * in one pass so that the customer sees every problem at once; messages are keys of the
 * "invoicing" namespace, each next to its field.
 */

export interface FiscalData {
  rfc: string;
  kind: RfcKind;
  /** As typed, spaces collapsed; the CFDI writes it in capitals. */
  name: string;
  regimen: RegimenFiscal;
  postalCode: string;
  uso: UsoCfdi;
  email: string;
  /** Only for a card payment: which c_FormaPago it was (04 or 28). */
  cardKind: CardKind | null;
}

export interface FiscalFormOptions {
  /** The payment was by card: the form asks whether credit or debit. */
  askCardKind: boolean;
  /**
   * The account has an RFC saved (shown masked): the field may be left empty to use it, and
   * the kind of that RFC is what the régimen is checked against then.
   */
  savedRfcKind: RfcKind | null;
}

/** The checkbox's value (a checkbox's default) that means "use the RFC saved in my account". */
export const USE_SAVED_RFC = "on";

const RFC_FAULT_KEYS: Record<RfcFault, string> = {
  length: "rfcLength",
  characters: "rfcCharacters",
  generic: "rfcGeneric",
  kind: "rfcLength",
  name: "rfcName",
  date: "rfcDate",
  homoclave: "rfcHomoclave",
  "check-digit": "rfcCheckDigit",
};

const message = (key: string) => `invoicing:errors.${key}`;

/** The raw form, every field optional text: what a browser may send. */
const rawForm = z.object({
  rfc: z.string().optional(),
  rfc_guardado: z.string().optional(),
  nombre: z.string().optional(),
  regimen: z.string().optional(),
  codigo_postal: z.string().optional(),
  uso: z.string().optional(),
  correo: z.string().optional(),
  tarjeta: z.string().optional(),
});

const emailSchema = z.email();

/** "Ana  López " → "Ana López": what the CFDI's Nombre carries (in capitals). */
export function normalizeFiscalName(value: string): string {
  return value.normalize("NFC").replace(/\s+/g, " ").trim();
}

/**
 * The schema of the form. Its output: `rfc` null when the customer left it empty to use the
 * saved one (the caller puts the saved RFC in), else the RFC checked.
 */
export function fiscalDataSchema({ askCardKind, savedRfcKind }: FiscalFormOptions) {
  return rawForm.transform((raw, ctx) => {
    const issue = (path: string, key: string) =>
      ctx.addIssue({ code: "custom", path: [path], message: message(key) });

    let rfc: string | null = null;
    let kind: RfcKind | null = null;
    const typedRfc = normalizeRfc(raw.rfc ?? "");
    if (typedRfc) {
      const check = checkRfc(typedRfc);
      if (check.ok) {
        rfc = check.rfc;
        kind = check.kind;
      } else {
        issue("rfc", RFC_FAULT_KEYS[check.fault]);
      }
    } else if (savedRfcKind && raw.rfc_guardado === USE_SAVED_RFC) {
      kind = savedRfcKind;
    } else {
      issue("rfc", "rfcRequired");
    }

    const name = normalizeFiscalName(raw.nombre ?? "");
    if (!name) issue("nombre", "nameRequired");
    else if (name.length < 3) issue("nombre", "nameShort");
    else if (name.length > 254) issue("nombre", "nameLong");
    else if (hasControlCharacters(name) || name.includes("|")) issue("nombre", "nameCharacters");

    const regimen = (raw.regimen ?? "").trim();
    if (!regimen) issue("regimen", "regimenRequired");
    else if (!isRegimenFiscal(regimen)) issue("regimen", "regimenUnknown");
    else if (kind && !regimenAllowsKind(regimen, kind)) {
      issue("regimen", kind === "fisica" ? "regimenNotForFisica" : "regimenNotForMoral");
    }

    const postalCode = (raw.codigo_postal ?? "").replace(/\s/g, "");
    if (!postalCode) issue("codigo_postal", "postalCodeRequired");
    else if (!/^\d{5}$/.test(postalCode)) issue("codigo_postal", "postalCodeFormat");

    const uso = (raw.uso ?? "").trim();
    if (!uso) issue("uso", "usoRequired");
    else if (!isUsoCfdi(uso)) issue("uso", "usoUnknown");
    else if (isRegimenFiscal(regimen) && !usoAllowedFor(uso, regimen)) {
      issue("uso", "usoNotForRegimen");
    }

    const email = (raw.correo ?? "").trim();
    if (!email) issue("correo", "emailRequired");
    else if (email.length > 254 || !emailSchema.safeParse(email).success) {
      issue("correo", "emailInvalid");
    }

    let cardKind: CardKind | null = null;
    if (askCardKind) {
      const chosen = CARD_KINDS.find((candidate) => candidate === raw.tarjeta);
      if (chosen) cardKind = chosen;
      else issue("tarjeta", "cardKindRequired");
    }

    if (ctx.issues.length > 0) return z.NEVER;
    return {
      rfc,
      kind: kind!,
      name,
      regimen: regimen as RegimenFiscal,
      postalCode,
      uso: uso as UsoCfdi,
      email,
      cardKind,
    };
  });
}

export type FiscalForm = z.output<ReturnType<typeof fiscalDataSchema>>;

/** "GOMA850312AB1" → "GOMA•••••••B1": what pages and lists show of an RFC. */
export function maskRfc(rfc: string): string {
  return `${rfc.slice(0, 4)}${"•".repeat(Math.max(rfc.length - 6, 0))}${rfc.slice(-2)}`;
}
