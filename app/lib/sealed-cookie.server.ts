import type * as z from "zod";
import { createSealedBox } from "./sealed-box.server";

/**
 * Encrypted, authenticated cookies (AES-256-GCM). Every secret in the list opens a cookie; the
 * first one seals, so secrets rotate without signing anyone out. A key is derived per secret and
 * per cookie name, so one cookie's value can never be replayed as another's.
 *
 * Values larger than one cookie can hold are split into numbered chunks (`name.0`, `name.1`, …);
 * every write also expires the chunks a previous, longer value left behind.
 */

/** A browser keeps at most 4096 bytes per cookie, name and attributes included. */
export const MAX_SET_COOKIE_BYTES = 4096;
const CHUNK_VALUE_BYTES = 3800;
const MAX_CHUNKS = 10;

export interface SealedCookieOptions<T> {
  /** Base name; production adds the `__Host-` prefix. */
  name: string;
  secrets: string[];
  /** Secure + `__Host-` prefix. */
  secure: boolean;
  /** Lifetime in seconds; undefined makes a browser-session cookie with no server-side expiry. */
  maxAgeSeconds?: number;
  schema: z.ZodType<T>;
}

/**
 * What a capability declares about a cookie it keeps (app/sealed-cookies.server.ts lists them
 * all): the server adds its secrets and whether it runs over HTTPS.
 */
export type SealedCookieSpec<T> = Pick<SealedCookieOptions<T>, "name" | "maxAgeSeconds" | "schema">;

/** The cookies a browser sent: its Cookie header, or that header already parsed. */
export type CookieSource = string | null | ReadonlyMap<string, string>;

export interface SealedCookie<T> {
  readonly name: string;
  /** How long a copy of the cookie stays valid after it was written. */
  readonly maxAgeSeconds?: number;
  /** The value, or null when the cookie is absent, tampered, truncated, expired or unreadable. */
  read(cookies: CookieSource): T | null;
  /** Whether the browser sent this cookie (or a chunk of it), readable or not. */
  isPresent(cookies: CookieSource): boolean;
  /** Set-Cookie headers that store the value (and clear stale chunks). */
  write(value: T, cookies: CookieSource): string[];
  /** Set-Cookie headers that remove the cookie and every chunk of it. */
  clear(cookies: CookieSource): string[];
}

interface Envelope {
  /** The value. */
  v: unknown;
  /** Expiry, epoch milliseconds; absent for browser-session cookies. */
  e?: number;
}

function parsed(cookies: CookieSource): ReadonlyMap<string, string> {
  return typeof cookies === "string" || cookies === null ? parseCookieHeader(cookies) : cookies;
}

export function parseCookieHeader(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(";")) {
    const separator = part.indexOf("=");
    if (separator < 0) continue;
    const name = part.slice(0, separator).trim();
    if (!name || cookies.has(name)) continue;
    cookies.set(name, part.slice(separator + 1).trim());
  }
  return cookies;
}

export function createSealedCookie<T>(options: SealedCookieOptions<T>): SealedCookie<T> {
  if (options.secrets.length === 0) throw new Error("createSealedCookie needs at least one secret");
  const name = options.secure ? `__Host-${options.name}` : options.name;
  const box = createSealedBox({
    secrets: options.secrets,
    salt: "storefront-sealed-cookie",
    purpose: name,
  });
  const attributes = [
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    ...(options.secure ? ["Secure"] : []),
    ...(options.maxAgeSeconds !== undefined ? [`Max-Age=${options.maxAgeSeconds}`] : []),
  ].join("; ");
  const expiredAttributes = [
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    ...(options.secure ? ["Secure"] : []),
    "Max-Age=0",
  ].join("; ");

  function seal(value: T): string {
    const envelope: Envelope = { v: value };
    if (options.maxAgeSeconds !== undefined) envelope.e = Date.now() + options.maxAgeSeconds * 1000;
    return box.seal(JSON.stringify(envelope));
  }

  function open(sealed: string): T | null {
    const plain = box.open(sealed);
    if (plain === null) return null;
    try {
      const envelope = JSON.parse(plain) as Envelope;
      if (typeof envelope.e === "number" && envelope.e < Date.now()) return null;
      const parsed = options.schema.safeParse(envelope.v);
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  /** The stored value: either the plain cookie or its chunks joined in order. */
  function collect(cookies: ReadonlyMap<string, string>): string | null {
    const whole = cookies.get(name);
    if (whole) return whole;
    const chunks: string[] = [];
    for (let index = 0; index < MAX_CHUNKS; index++) {
      const chunk = cookies.get(`${name}.${index}`);
      if (chunk === undefined) break;
      chunks.push(chunk);
    }
    return chunks.length > 0 ? chunks.join("") : null;
  }

  function presentNames(cookies: ReadonlyMap<string, string>): string[] {
    return [...cookies.keys()].filter(
      (cookieName) =>
        cookieName === name ||
        (/^\d+$/.test(cookieName.slice(name.length + 1)) && cookieName.startsWith(`${name}.`)),
    );
  }

  return {
    name,
    maxAgeSeconds: options.maxAgeSeconds,
    read(cookies) {
      const stored = collect(parsed(cookies));
      return stored ? open(stored) : null;
    },
    isPresent(cookies) {
      return presentNames(parsed(cookies)).length > 0;
    },
    write(value, cookies) {
      const sealed = seal(value);
      const pieces: Array<[string, string]> = [];
      if (sealed.length <= CHUNK_VALUE_BYTES) {
        pieces.push([name, sealed]);
      } else {
        for (
          let offset = 0, index = 0;
          offset < sealed.length;
          offset += CHUNK_VALUE_BYTES, index++
        ) {
          pieces.push([`${name}.${index}`, sealed.slice(offset, offset + CHUNK_VALUE_BYTES)]);
        }
        if (pieces.length > MAX_CHUNKS) throw new Error(`Cookie ${name} is too large to store`);
      }
      const written = new Set(pieces.map(([pieceName]) => pieceName));
      const stale = presentNames(parsed(cookies)).filter((cookieName) => !written.has(cookieName));
      return [
        ...pieces.map(([pieceName, pieceValue]) => `${pieceName}=${pieceValue}; ${attributes}`),
        ...stale.map((cookieName) => `${cookieName}=; ${expiredAttributes}`),
      ];
    },
    clear(cookies) {
      const names = new Set([name, ...presentNames(parsed(cookies))]);
      return [...names].map((cookieName) => `${cookieName}=; ${expiredAttributes}`);
    },
  };
}
