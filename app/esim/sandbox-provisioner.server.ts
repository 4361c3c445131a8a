import { createHmac, hkdfSync } from "node:crypto";
import { luhnCheckDigit } from "~/lib/luhn";
import {
  assertIssueRequest,
  type EsimActivation,
  type EsimIssueRequest,
  type EsimProvisioner,
  formatActivationCode,
} from "./provisioning";

/**
 * The embedded default: issues well-formed activation codes that no phone can use. The SM-DP+
 * address is under `.invalid`, a top-level domain reserved never to resolve (RFC 6761 §6.4),
 * so a phone that scans the QR code fails to reach it; every activation says `testCode: true`.
 *
 * Deterministic: the matching ID and ICCID are an HMAC of (orderRef, position[, generation]) under a key
 * derived from the secret passed in, so two servers, two concurrent requests or a retry all
 * agree on the same eSIM without storing anything first.
 */
export const SANDBOX_SMDP_ADDRESS = "sandbox.smdp.invalid";

/**
 * 89 (telecommunications), 52 (Mexico), then 9999: an issuer number chosen to stand out as a
 * test. Not a reserved test range (E.118 has none), and not checked against the assignments.
 */
export const SANDBOX_ICCID_PREFIX = "89529999";

/** Digits after the prefix, before the check digit: 8 + 11 + 1 = a 20-digit ICCID. */
const ICCID_SERIAL_DIGITS = 11;

export interface SandboxProvisionerOptions {
  /** At least 32 characters, e.g. the session secret: only a subkey bound to this use is kept. */
  secret: string;
}

/** The sandbox's key, derived from the secret so the secret itself signs nothing here. */
function deriveSandboxKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "storefront-esim", "sandbox-activations", 32));
}

export function createSandboxProvisioner(options: SandboxProvisionerOptions): EsimProvisioner {
  if (typeof options.secret !== "string" || options.secret.length < 32) {
    throw new TypeError("the eSIM sandbox needs a secret of at least 32 characters");
  }
  const key = deriveSandboxKey(options.secret);

  return {
    name: "sandbox",
    simulatesInstallation: true,
    async issue(request: EsimIssueRequest): Promise<EsimActivation> {
      assertIssueRequest(request);
      // JSON keeps the parts apart: ("A1", 23) and ("A12", 3) never sign the same text. A first
      // code signs what codes were signed from before replacements existed.
      const parts =
        request.generation === 0
          ? [request.orderRef, request.position]
          : [request.orderRef, request.position, request.generation];
      const digest = createHmac("sha256", key).update(JSON.stringify(parts)).digest();
      const matchingId = digest.subarray(0, 16).toString("hex").toUpperCase();
      const serial = (digest.readBigUInt64BE(16) % 10n ** BigInt(ICCID_SERIAL_DIGITS))
        .toString()
        .padStart(ICCID_SERIAL_DIGITS, "0");
      const body = `${SANDBOX_ICCID_PREFIX}${serial}`;
      return {
        activationCode: formatActivationCode(SANDBOX_SMDP_ADDRESS, matchingId),
        smdpAddress: SANDBOX_SMDP_ADDRESS,
        matchingId,
        iccid: `${body}${luhnCheckDigit(body)}`,
        testCode: true,
      };
    },
    // Nothing downloads a sandbox code: withdrawing one always succeeds, and the store stops
    // showing it.
    async cancel() {
      return "cancelled";
    },
  };
}
