import { describe, expect, it } from "vitest";
import * as z from "zod";
import { createCookieJar } from "./cookie-jar.server";
import { createSealedCookie } from "./sealed-cookie.server";

const secrets = ["jar-secret-".padEnd(40, "j")];
const note = createSealedCookie({
  name: "note",
  secrets,
  secure: false,
  maxAgeSeconds: 60,
  schema: z.object({ text: z.string() }),
});
const other = createSealedCookie({
  name: "other",
  secrets,
  secure: false,
  schema: z.number(),
});

/** The Cookie header of a browser holding these values. */
function browserWith(value: { text: string }): string {
  return note
    .write(value, null)
    .map((line) => line.split(";")[0])
    .join("; ");
}

describe("the cookie jar of one request", () => {
  it("opens what the browser sent, and sets nothing when nothing changes", () => {
    const jar = createCookieJar(browserWith({ text: "hola" }));
    expect(jar.get(note)).toEqual({ text: "hola" });
    expect(jar.get(other)).toBeNull();
    expect(jar.setCookieHeaders({ redirect: false })).toEqual([]);
  });

  it("answers later reads with what the request wrote, and sends one line per cookie", () => {
    const jar = createCookieJar(browserWith({ text: "antes" }));
    jar.set(note, { text: "primero" });
    jar.set(note, { text: "después" });
    expect(jar.get(note)).toEqual({ text: "después" });
    expect(jar.received(note)).toEqual({ text: "antes" });
    const lines = jar.setCookieHeaders({ redirect: false });
    expect(lines).toHaveLength(1);
    expect(note.read(lines[0].split(";")[0])).toEqual({ text: "después" });
  });

  it("clears a cookie the browser has, and sends nothing for one it never had", () => {
    const jar = createCookieJar(browserWith({ text: "x" }));
    jar.clear(note);
    jar.clear(other);
    expect(jar.get(note)).toBeNull();
    expect(jar.setCookieHeaders({ redirect: false })).toEqual([
      expect.stringMatching(/^note=; .*Max-Age=0/),
    ]);
    const fresh = createCookieJar(null);
    fresh.set(other, 7);
    fresh.clear(other);
    expect(fresh.setCookieHeaders({ redirect: false })).toEqual([]);
  });

  it("removes a consumed message once a page shows it, not on a redirect", () => {
    const shown = createCookieJar(browserWith({ text: "aviso" }));
    expect(shown.consume(note)).toEqual({ text: "aviso" });
    expect(shown.setCookieHeaders({ redirect: false })).toEqual([
      expect.stringMatching(/^note=; .*Max-Age=0/),
    ]);
    const redirected = createCookieJar(browserWith({ text: "aviso" }));
    redirected.consume(note);
    expect(redirected.setCookieHeaders({ redirect: true })).toEqual([]);
  });

  it("keeps a message written after the old one was consumed, redirect or not", () => {
    const jar = createCookieJar(browserWith({ text: "viejo" }));
    jar.consume(note);
    jar.set(note, { text: "nuevo" });
    for (const redirect of [false, true]) {
      const lines = jar.setCookieHeaders({ redirect });
      expect(lines).toHaveLength(1);
      expect(note.read(lines[0].split(";")[0])).toEqual({ text: "nuevo" });
    }
  });

  it("clears an unreadable (tampered) one-time cookie when consumed", () => {
    const jar = createCookieJar("note=basura");
    expect(jar.consume(note)).toBeNull();
    expect(jar.setCookieHeaders({ redirect: false })).toEqual([
      expect.stringMatching(/^note=; .*Max-Age=0/),
    ]);
  });
});
