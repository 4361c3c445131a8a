import { ID_IMAGE_MAX_BYTES } from "~/registration/identification-evidence";
import { HOLDER_PROOF_PATHNAME, REGISTRATION_PATH } from "~/registration/paths";

/**
 * Every page form posts `application/x-www-form-urlencoded` or `multipart/form-data`, and a few
 * kilobytes at most. Anything else aimed at a page is refused before React Router reads it: otherwise
 * `request.formData()` throws on another content type (a 500) and buffers a body of any size.
 * The payment provider's and the SM-DP+'s JSON notifications have their own content type, under
 * the same limit.
 */
export const FORM_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * The two forms that upload a photo of the identification and a selfie: online line registration
 * (decision 0136) and an order's holder showing their identification (decision 0139), each photo
 * at most ID_IMAGE_MAX_BYTES, with the form's few kilobytes and multipart's framing. Their
 * `.data` twins are the same forms sent by JavaScript.
 */
export const UPLOAD_BODY_LIMIT_BYTES = 2 * ID_IMAGE_MAX_BYTES + FORM_BODY_LIMIT_BYTES;
const UPLOAD_PATHS = new Set(
  [REGISTRATION_PATH, HOLDER_PROOF_PATHNAME].flatMap((path) => [path, `${path}.data`]),
);

/** The most a write to `path` may send: 64 KB, but for the forms with photos. */
export function formBodyLimitFor(path: string): number {
  return UPLOAD_PATHS.has(path) ? UPLOAD_BODY_LIMIT_BYTES : FORM_BODY_LIMIT_BYTES;
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];
const OWN_RULES_PREFIXES = ["/payments/webhook/", "/gsma/rsp2/es2plus/"];

export type FormRequestProblem =
  | { status: 411 | 413; key: "errors.formTooLarge" }
  | { status: 415; key: "errors.unsupportedForm" };

interface FormRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  contentLength: string | undefined;
  transferEncoding: string | undefined;
}

function hasNoBody(request: FormRequest): boolean {
  if (request.transferEncoding) return false;
  return request.contentLength === undefined || Number(request.contentLength) === 0;
}

/**
 * A write without a body, whatever content type it claims, is an empty form: React Router's
 * `request.formData()` would throw on any type but a form's.
 */
export function readsAsEmptyForm(request: FormRequest): boolean {
  return WRITE_METHODS.has(request.method.toUpperCase()) && hasNoBody(request);
}

export function formRequestProblem(request: FormRequest): FormRequestProblem | null {
  // A bodiless POST (a bare `fetch`, a script) carries nothing to misread.
  if (!WRITE_METHODS.has(request.method.toUpperCase()) || hasNoBody(request)) return null;
  const ownRules = OWN_RULES_PREFIXES.some((prefix) => request.path.startsWith(prefix));
  if (!ownRules) {
    const mediaType = (request.contentType ?? "").split(";")[0].trim().toLowerCase();
    if (!FORM_TYPES.includes(mediaType)) return { status: 415, key: "errors.unsupportedForm" };
  }
  if (request.contentLength === undefined) {
    // A body without a declared length could be any size; browsers always declare it. The
    // notifications route measures what it reads instead.
    return ownRules ? null : { status: 411, key: "errors.formTooLarge" };
  }
  // Checked here for every route, the notifications too: a large body React Router answers without
  // reading ends with the connection reset, so the client would never see the answer.
  const length = Number(request.contentLength);
  if (!Number.isFinite(length) || length > formBodyLimitFor(request.path)) {
    return { status: 413, key: "errors.formTooLarge" };
  }
  return null;
}
