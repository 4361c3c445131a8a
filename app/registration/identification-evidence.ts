import type { IdentificationType } from "./holder";

/**
 * What online registration asks besides the holder's data, to show the registrant is the holder
 * (issue 47, decision 0136): the identification's own number, a photo of it and a selfie, which
 * go to the identity validation and are never kept.
 */

/** Each photo: at most 5 MB, an image a phone's camera or gallery gives. */
export const ID_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** What a phone's camera or gallery gives; checked by the file's first bytes on the server too. */
export const ID_IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/heic", "image/heif"];
export type IdImageType = (typeof ID_IMAGE_TYPES)[number];

/**
 * The identifications whose number the validation service can check online: the credencial para
 * votar (its CIC, against the INE's list) and the Mexican passport (against the SRE). The CURP
 * biométrica has no number of its own yet: it is registered in a store.
 */
export const ONLINE_IDENTIFICATION_TYPES = [
  "ine",
  "pasaporte",
] as const satisfies readonly IdentificationType[];

export type IdentificationNumberFault = "required" | "cic-format" | "passport-format" | "in-store";

/** "1234 567-89" → "123456789": spaces and hyphens as people copy them go, letters upper case. */
export function normalizeIdentificationNumber(value: string): string {
  return value.toUpperCase().replace(/[\s-]+/g, "");
}

/** The INE's CIC: the 9 digits after "IDMEX" in the first line of the back. */
const CIC = /^\d{9}$/;
/** A Mexican passport's number: one letter and 8 digits (G12345678). */
const MEXICAN_PASSPORT = /^[A-Z]\d{8}$/;

/** Whether `value` (normalised) is the number an identification of `type` has, or its fault. */
export function checkIdentificationNumber(
  type: IdentificationType,
  value: string,
): { ok: true } | { ok: false; fault: IdentificationNumberFault } {
  if (type === "curp_biometrica") return { ok: false, fault: "in-store" };
  if (value === "") return { ok: false, fault: "required" };
  if (type === "ine") return CIC.test(value) ? { ok: true } : { ok: false, fault: "cic-format" };
  return MEXICAN_PASSPORT.test(value) ? { ok: true } : { ok: false, fault: "passport-format" };
}

/**
 * The image type a file's first bytes say it is, whatever the browser declared: JPEG, PNG, WebP,
 * or HEIC/HEIF (an ISO box "ftyp" with an HEIF brand); null for anything else.
 */
export function sniffImageType(bytes: Uint8Array): IdImageType | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return "image/jpeg";
  }
  if (bytes.length >= 8 && ascii(0, 8) === "\x89PNG\r\n\x1a\n") return "image/png";
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  if (bytes.length >= 12 && ascii(4, 8) === "ftyp") {
    const brand = ascii(8, 12);
    if (["heic", "heix", "hevc", "hevx"].includes(brand)) return "image/heic";
    if (["mif1", "msf1", "heif"].includes(brand)) return "image/heif";
  }
  return null;
}

/** A photo a form uploaded, as the validation receives it; null when its bytes are no image. */
async function idImageFrom(file: File): Promise<{ type: IdImageType; bytes: Uint8Array } | null> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffImageType(bytes);
  return type ? { type, bytes } : null;
}

/**
 * The identification's photo and the selfie a form uploaded, or the message for each that is no
 * image by its bytes (whatever type the browser declared).
 */
export async function idImagesFrom(form: { id_photo: File; selfie: File }): Promise<
  | {
      idPhoto: { type: IdImageType; bytes: Uint8Array };
      selfie: { type: IdImageType; bytes: Uint8Array };
    }
  | { fieldErrors: Record<string, string[]> }
> {
  const [idPhoto, selfie] = await Promise.all([
    idImageFrom(form.id_photo),
    idImageFrom(form.selfie),
  ]);
  if (idPhoto && selfie) return { idPhoto, selfie };
  const fieldErrors: Record<string, string[]> = {};
  if (!idPhoto) fieldErrors.id_photo = ["registration:errors.imageType"];
  if (!selfie) fieldErrors.selfie = ["registration:errors.imageType"];
  return { fieldErrors };
}
