import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  randomBytes,
} from "node:crypto";

/**
 * Authenticated encryption of short strings (AES-256-GCM) keyed from the session secrets: the
 * first secret seals, every listed secret opens, so secrets rotate without losing what was
 * sealed. A key is derived per secret and per purpose, so a value sealed for one purpose (a
 * cookie, a database column) never opens as another's.
 */

const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT_PREFIX = "v1.";

export interface SealedBoxOptions {
  secrets: readonly string[];
  /** Names the family of uses ("storefront-sealed-cookie", "storefront-field"). */
  salt: string;
  /** Names the one use (the cookie's name, "portability_requests.nip"). */
  purpose: string;
}

export interface SealedBox {
  /**
   * `boundTo` (authenticated, not stored) ties the sealed value to its owner, such as the row
   * id: copied to another row, it no longer opens.
   */
  seal(plain: string, boundTo?: string): string;
  /** The plain text, or null when the value is tampered, truncated or sealed with another key. */
  open(sealed: string, boundTo?: string): string | null;
}

export function createSealedBox(options: SealedBoxOptions): SealedBox {
  if (options.secrets.length === 0) throw new Error("createSealedBox needs at least one secret");
  // Key objects made once: handed raw bytes, every cipher would build its own, which doubled the
  // cost of sealing and opening a cookie (issue 33).
  const keys = options.secrets.map((secret) =>
    createSecretKey(Buffer.from(hkdfSync("sha256", secret, options.salt, options.purpose, 32))),
  );
  return {
    seal(plain, boundTo) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", keys[0], iv);
      if (boundTo !== undefined) cipher.setAAD(Buffer.from(boundTo, "utf8"));
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return FORMAT_PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
    },
    open(sealed, boundTo) {
      if (!sealed.startsWith(FORMAT_PREFIX)) return null;
      const raw = Buffer.from(sealed.slice(FORMAT_PREFIX.length), "base64url");
      if (raw.length <= IV_BYTES + TAG_BYTES) return null;
      const iv = raw.subarray(0, IV_BYTES);
      const tag = raw.subarray(raw.length - TAG_BYTES);
      const body = raw.subarray(IV_BYTES, raw.length - TAG_BYTES);
      for (const key of keys) {
        try {
          const decipher = createDecipheriv("aes-256-gcm", key, iv);
          if (boundTo !== undefined) decipher.setAAD(Buffer.from(boundTo, "utf8"));
          decipher.setAuthTag(tag);
          return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
        } catch {
          // Wrong key (rotation) or tampered: try the next key.
        }
      }
      return null;
    },
  };
}
