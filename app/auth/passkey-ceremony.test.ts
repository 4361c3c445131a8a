import { describe, expect, it } from "vitest";
import { passkeyErrorKey } from "./passkey-ceremony";

const domError = (name: string) => Object.assign(new Error(name), { name });

describe("a passkey ceremony's failure, as the spec names it", () => {
  it.each([
    [domError("AbortError"), "aborted"],
    [Object.assign(domError("AbortError"), { code: "ERROR_CEREMONY_ABORTED" }), "aborted"],
    [domError("NotAllowedError"), "cancelled"],
    [domError("InvalidStateError"), "alreadyExists"],
    [
      Object.assign(domError("InvalidStateError"), {
        code: "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED",
      }),
      "alreadyExists",
    ],
    [domError("SecurityError"), "relyingPartyMismatch"],
    [
      Object.assign(domError("SecurityError"), { code: "ERROR_INVALID_RP_ID" }),
      "relyingPartyMismatch",
    ],
    [domError("NotSupportedError"), "notSupported"],
    [new Error("WebAuthn is not supported in this browser"), "notSupported"],
    [domError("UnknownError"), "failed"],
    [null, "failed"],
  ])("%o → %s", (error, key) => {
    expect(passkeyErrorKey(error)).toBe(key);
  });
});
