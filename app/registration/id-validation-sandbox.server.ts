import { randomUUID } from "node:crypto";
import { isPhoneCountry } from "~/auth/countries";
import { checkCurp, normalizeCurp } from "./curp";
import { nameMatchesCurp } from "./curp-initials";
import {
  IdValidationUnavailable,
  type IdEvidence,
  type IdValidationOutcome,
  type IdValidationRequest,
  type IdValidationResult,
  type IdValidator,
} from "./id-validation";
import { checkRfc } from "./rfc";

/**
 * The store's stand-in for the operator's validation service (ID_VALIDATION_PROVIDER=sandbox,
 * the default; decision 0096). It knows nobody: it answers by rules a tester can follow.
 *
 * - A CURP (persona física, a foreigner's CURP temporal): one of SANDBOX_TEST_CURPS gets its
 *   refusal, whatever the name; any other well-formed CURP is valid when its first four letters
 *   are the name's by RENAPO's rule (./curp-initials.ts), otherwise "name-mismatch".
 * - A persona extranjera without a CURP: a well-formed passport number and nationality are valid.
 * - A persona moral: a well-formed RFC is valid (the razón social is not compared); the legal
 *   representative's CURP, when it is one of SANDBOX_TEST_CURPS, gets its refusal.
 * - Anything malformed (the form checks first, so only a caller's mistake) is "not-found", as a
 *   real registry would answer.
 * - Online registration's evidence (decision 0136), when sent: one of SANDBOX_TEST_DOCUMENT_NUMBERS
 *   (per kind of identification) makes the service unavailable or the document "not this
 *   person's"; a selfie whose bytes are the identification photo's (a photo of a photo) is "not
 *   live". Any other number and two different images pass, and the CURP rules above decide. The
 *   images are only compared, never kept.
 */

/** Valid-looking CURPs (right structure and check digit) that the sandbox refuses. */
export const SANDBOX_TEST_CURPS = {
  "not-found": "XXXX010101HNEXXXA4",
  "name-mismatch": "XXXX020202MNEXXXA1",
  deceased: "XXXX030303HNEXXXA8",
} as const satisfies Record<"not-found" | "name-mismatch" | "deceased", string>;

/**
 * Identification numbers that pass the form's format check and that the sandbox answers
 * otherwise: "document-mismatch" (the number is not the person's), "unavailable" (the service
 * cannot say: a 503 that counts no attempt).
 */
export const SANDBOX_TEST_DOCUMENT_NUMBERS = {
  "document-mismatch": {
    ine: "000000000",
    pasaporte: "X00000000",
    "pasaporte-extranjero": "ZZ0000000",
  },
  unavailable: {
    ine: "999999999",
    pasaporte: "X99999999",
    "pasaporte-extranjero": "ZZ9999999",
  },
} as const satisfies Record<string, Record<IdEvidence["document"], string>>;

function isTestDocument(
  evidence: IdEvidence,
  answer: keyof typeof SANDBOX_TEST_DOCUMENT_NUMBERS,
): boolean {
  return SANDBOX_TEST_DOCUMENT_NUMBERS[answer][evidence.document] === evidence.documentNumber;
}

function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
  return Buffer.from(left.buffer, left.byteOffset, left.byteLength).equals(
    Buffer.from(right.buffer, right.byteOffset, right.byteLength),
  );
}

const TEST_CURP_OUTCOMES = new Map<string, IdValidationOutcome>(
  Object.entries(SANDBOX_TEST_CURPS).map(([outcome, curp]) => [
    curp,
    outcome as IdValidationOutcome,
  ]),
);

const PASSPORT_NUMBER = /^[A-Z0-9]{6,20}$/;

export const SANDBOX_SOURCE = "sandbox";

/** The outcome the sandbox gives a request, without the reference: a pure rule, for its tests. */
export function sandboxOutcome(request: IdValidationRequest): IdValidationOutcome {
  const curp = request.curp ? normalizeCurp(request.curp) : null;
  const testOutcome = curp ? TEST_CURP_OUTCOMES.get(curp) : undefined;
  if (testOutcome) return testOutcome;
  const evidence = request.evidence;
  if (evidence) {
    if (isTestDocument(evidence, "document-mismatch")) return "document-mismatch";
    if (sameBytes(evidence.idPhoto.bytes, evidence.selfie.bytes)) return "selfie-not-live";
  }
  switch (request.kind) {
    case "fisica":
      return curpOutcome(curp, request.fullName);
    case "extranjera":
      if (curp) return curpOutcome(curp, request.fullName);
      return request.passportNumber &&
        PASSPORT_NUMBER.test(request.passportNumber) &&
        request.nationality &&
        request.nationality !== "MX" &&
        isPhoneCountry(request.nationality)
        ? "valid"
        : "not-found";
    case "moral":
      if (curp && !checkCurp(curp).ok) return "not-found";
      return request.rfc && checkRfc(request.rfc, "moral").ok ? "valid" : "not-found";
  }
}

function curpOutcome(curp: string | null, fullName: string): IdValidationOutcome {
  if (!curp || !checkCurp(curp).ok) return "not-found";
  return nameMatchesCurp(fullName, curp) ? "valid" : "name-mismatch";
}

export function createSandboxIdValidator(): IdValidator {
  return {
    name: "sandbox",
    async validate(request: IdValidationRequest): Promise<IdValidationResult> {
      if (request.evidence && isTestDocument(request.evidence, "unavailable")) {
        throw new IdValidationUnavailable("identity validation: the sandbox's test document", {
          reason: "http-status",
          httpStatus: 503,
        });
      }
      const outcome = sandboxOutcome(request);
      // A reference like a real service's, so that a registration keeps one; random, so that it
      // says nothing of the person.
      return { outcome, reference: `sandbox-${randomUUID()}`, source: SANDBOX_SOURCE };
    },
  };
}
