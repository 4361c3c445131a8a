import * as z from "zod";
import { countryOptions, isPhoneCountry } from "~/auth/countries";
import { withoutControlCharacters } from "~/lib/control-characters";
import "~/lib/zod-without-eval";
import { checkCurp, normalizeCurp, type CurpFault } from "./curp";
import { checkRfc, normalizeRfc, type RfcFault } from "./rfc";

/**
 * The holder of a line, as the registration asks for it (issue 27): a persona física, a persona
 * extranjera or a persona moral. One schema per kind, the same on the server and in the browser;
 * messages are keys of the "registration" namespace, one per fault, shown next to the field.
 */

export const HOLDER_KINDS = ["fisica", "extranjera", "moral"] as const;
export type HolderKind = (typeof HOLDER_KINDS)[number];

/**
 * The identifications the operators take for the registration (vigentes, with photograph): the
 * credencial para votar, the Mexican passport and the Documento Nacional de Identidad (CURP
 * biométrica). A foreigner registers with a passport only.
 */
export const IDENTIFICATION_TYPES = ["ine", "pasaporte", "curp_biometrica"] as const;
export type IdentificationType = (typeof IDENTIFICATION_TYPES)[number];

const message = (key: string) => ({ error: `registration:errors.${key}` });

const CURP_FAULT_KEYS: Record<CurpFault, string> = {
  length: "curpLength",
  characters: "curpCharacters",
  initials: "curpInitials",
  "birth-date": "curpBirthDate",
  sex: "curpSex",
  state: "curpState",
  consonants: "curpConsonants",
  "check-digit": "curpCheckDigit",
};

const RFC_FAULT_KEYS: Record<RfcFault, string> = {
  length: "rfcLength",
  characters: "rfcCharacters",
  generic: "rfcGeneric",
  kind: "rfcKind",
  name: "rfcName",
  date: "rfcDate",
  homoclave: "rfcHomoclave",
  "check-digit": "rfcCheckDigit",
};

/** The translation key of a CURP fault: what the form says next to the field. */
export const curpFaultMessage = (fault: CurpFault) =>
  `registration:errors.${CURP_FAULT_KEYS[fault]}`;
export const rfcFaultMessage = (fault: RfcFault) => `registration:errors.${RFC_FAULT_KEYS[fault]}`;

/** A required CURP field: normalised, then the first fault `checkCurp` finds, told by its name. */
const curpField = (requiredKey = "curpRequired") =>
  z
    .string(message(requiredKey))
    .transform(normalizeCurp)
    .pipe(
      z
        .string()
        .min(1, { ...message(requiredKey), abort: true })
        .check((context) => {
          const check = checkCurp(context.value);
          if (!check.ok) {
            context.issues.push({
              code: "custom",
              input: context.value,
              message: curpFaultMessage(check.fault),
            });
          }
        }),
    );

const rfcMoralField = z
  .string(message("rfcRequired"))
  .transform(normalizeRfc)
  .pipe(
    z
      .string()
      .min(1, { ...message("rfcRequired"), abort: true })
      .check((context) => {
        const check = checkRfc(context.value, "moral");
        if (!check.ok) {
          context.issues.push({
            code: "custom",
            input: context.value,
            message: rfcFaultMessage(check.fault),
          });
        }
      }),
  );

/** A name as written on an ID or in the acta constitutiva; the operator's terminal shows it. */
const nameField = (requiredKey: string, shortKey: string) =>
  z
    .string(message(requiredKey))
    .trim()
    .min(1, { ...message(requiredKey), abort: true })
    .min(3, message(shortKey))
    .max(120, message("tooLong"))
    .check(withoutControlCharacters(message("controlCharacters")));

const identificationField = z.enum(IDENTIFICATION_TYPES, message("identificationTypeRequired"));

export const personaFisicaSchema = z.object({
  holder_kind: z.literal("fisica"),
  full_name: nameField("fullNameRequired", "fullNameShort"),
  curp: curpField(),
  identification_type: identificationField,
});

/** Passport numbers differ by country: letters and digits, written with or without spaces. */
const PASSPORT_NUMBER = /^[A-Z0-9]{6,20}$/;

export const personaExtranjeraSchema = z.object({
  holder_kind: z.literal("extranjera"),
  full_name: nameField("fullNameRequired", "fullNameShort"),
  passport_number: z
    .string(message("passportRequired"))
    .transform((value) => value.toUpperCase().replace(/[\s-]+/g, ""))
    .pipe(
      z
        .string()
        .min(1, { ...message("passportRequired"), abort: true })
        .regex(PASSPORT_NUMBER, message("passportFormat")),
    ),
  // An ISO 3166-1 code from the same list as the sign-up's country select (countryOptions).
  nationality: z
    .string(message("nationalityRequired"))
    .refine(isPhoneCountry, { ...message("nationalityRequired"), abort: true })
    .refine((country) => country !== "MX", message("nationalityMexican")),
  /** The CURP temporal para extranjeros, when they have one. */
  curp: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value : undefined))
    .pipe(curpField().optional()),
});

export const personaMoralSchema = z.object({
  holder_kind: z.literal("moral"),
  business_name: nameField("businessNameRequired", "businessNameShort"),
  rfc: rfcMoralField,
  representative_name: nameField("representativeNameRequired", "fullNameShort"),
  representative_curp: curpField("representativeCurpRequired"),
  representative_identification_type: identificationField,
});

/** The holder part of a form: the kind chosen decides which fields are asked and checked. */
export const holderSchema = z.discriminatedUnion(
  "holder_kind",
  [personaFisicaSchema, personaExtranjeraSchema, personaMoralSchema],
  message("holderKindRequired"),
);

/**
 * Who will hold the lines an order buys (checkout, decision 0101): a persona física or
 * extranjera, with the same checks as /registro-de-linea. A company's lines are registered in a
 * store, with its acta constitutiva.
 */
export const CHECKOUT_HOLDER_KINDS = ["fisica", "extranjera"] as const;
export const checkoutHolderSchema = z.discriminatedUnion(
  "holder_kind",
  [personaFisicaSchema, personaExtranjeraSchema],
  message("holderKindRequired"),
);

/**
 * The identification recorded for a port-in (decision 0101): the request was made online with
 * the name and CURP, the number proved by the NIP, and no document was seen; the CURP is what the
 * identity validation checks. Never offered by a form.
 */
export const PORT_IN_IDENTIFICATION = "curp";

/** The holder a completed portability is registered to: the name and CURP it was requested with. */
export const portInHolderSchema = personaFisicaSchema.extend({
  identification_type: z.literal(PORT_IN_IDENTIFICATION),
});

export type PersonaFisica = z.infer<typeof personaFisicaSchema>;
export type PersonaExtranjera = z.infer<typeof personaExtranjeraSchema>;
export type PersonaMoral = z.infer<typeof personaMoralSchema>;
export type Holder = z.infer<typeof holderSchema>;
export type CheckoutHolder = z.infer<typeof checkoutHolderSchema>;
export type PortInHolder = z.infer<typeof portInHolderSchema>;
/** Whoever a line can be registered to: a form's holder, or a port-in's requester. */
export type RegistrableHolder = Holder | PortInHolder;

/**
 * The key a holder's lines are counted and found by: the CURP (a foreigner without one: the
 * nationality and passport number), or the RFC of a persona moral.
 */
export function holderKey(holder: RegistrableHolder): string {
  switch (holder.holder_kind) {
    case "fisica":
      return holder.curp;
    case "extranjera":
      return holder.curp ?? `${holder.nationality}:${holder.passport_number}`;
    case "moral":
      return holder.rfc;
  }
}

/** The name the registration keeps: the full name as on the ID, or the razón social. */
export function holderName(holder: RegistrableHolder): string {
  return holder.holder_kind === "moral" ? holder.business_name : holder.full_name;
}

/** The identification presented: a foreigner's is the passport. */
export function holderIdentification(
  holder: RegistrableHolder,
): IdentificationType | typeof PORT_IN_IDENTIFICATION {
  switch (holder.holder_kind) {
    case "fisica":
      return holder.identification_type;
    case "extranjera":
      return "pasaporte";
    case "moral":
      return holder.representative_identification_type;
  }
}

/** The nationality select of a persona extranjera: every country but Mexico, by its Spanish name. */
export function nationalityOptions(): Array<{ value: string; label: string }> {
  return countryOptions()
    .filter((country) => country.value !== "MX")
    .map((country) => ({ value: country.value, label: country.name }));
}
