/**
 * The browser's half of a passkey (decision 0122): the only auth step that needs JavaScript.
 * @simplewebauthn/browser is imported when a ceremony starts, so no page carries it until a
 * customer presses a passkey button. Its errors are read as the spec's passkey errors.
 */

/** The spec's passkey errors (§8), plus a failure the browser does not explain. */
export type PasskeyErrorKey =
  "notSupported" | "alreadyExists" | "cancelled" | "aborted" | "relyingPartyMismatch" | "failed";

/** Whether this browser can make and use passkeys here (a secure page with WebAuthn). */
export function passkeysSupported(): boolean {
  return (
    typeof window !== "undefined" &&
    window.isSecureContext &&
    typeof window.PublicKeyCredential === "function" &&
    "credentials" in navigator
  );
}

/**
 * A ceremony's failure → its Spanish message's key. SimpleWebAuthn keeps the DOMException's
 * name (and adds a code); the WebAuthn spec says what each name means for create() and get().
 */
export function passkeyErrorKey(error: unknown): PasskeyErrorKey {
  const { name, code, message } = (error ?? {}) as {
    name?: string;
    code?: string;
    message?: string;
  };
  if (name === "AbortError" || code === "ERROR_CEREMONY_ABORTED") return "aborted";
  // The user closed the prompt, or no passkey of this account is on the device: the browser
  // does not say which (on purpose: it would tell a site which passkeys exist).
  if (name === "NotAllowedError") return "cancelled";
  if (name === "InvalidStateError" || code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") {
    return "alreadyExists";
  }
  if (
    name === "SecurityError" ||
    code === "ERROR_INVALID_RP_ID" ||
    code === "ERROR_INVALID_DOMAIN"
  ) {
    return "relyingPartyMismatch";
  }
  if (name === "NotSupportedError" || /not supported/i.test(message ?? "")) return "notSupported";
  return "failed";
}

type Options = Record<string, unknown>;

/** navigator.credentials.create with the identity service's creation options. */
export async function createPasskey(options: Options): Promise<Record<string, unknown>> {
  const { startRegistration } = await import("@simplewebauthn/browser");
  const result = await startRegistration({ optionsJSON: options as never });
  return result as unknown as Record<string, unknown>;
}

/** navigator.credentials.get with the identity service's request options. */
export async function getPasskey(options: Options): Promise<Record<string, unknown>> {
  const { startAuthentication } = await import("@simplewebauthn/browser");
  const result = await startAuthentication({ optionsJSON: options as never });
  return result as unknown as Record<string, unknown>;
}
