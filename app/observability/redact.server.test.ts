import { describe, expect, it } from "vitest";
import { CENSORED, isSecretKey, redactSecrets, scrubText } from "./redact.server";

describe("secret keys", () => {
  it("hides every key that names a secret or an address, however it is spelt", () => {
    for (const key of [
      "email",
      "customerEmail",
      "EMAIL_ADDRESS",
      "correo",
      "authorization",
      "Authorization",
      "cookie",
      "set-cookie",
      "password",
      "newPassword",
      "clientSecret",
      "BSS_CLIENT_SECRET",
      "apiKey",
      "x-api-key",
      "idempotencyKey",
      "accessToken",
      "refresh_token",
      "DATABASE_URL",
      "databaseUrl",
      "SMTP_URL",
      "SENTRY_DSN",
      "nip",
      "curp",
      "curpRepresentante",
      "rfc",
      "pasaporte",
      "phoneNumber",
      "telefono",
      "cvc",
      "session",
    ]) {
      expect(isSecretKey(key), key).toBe(true);
    }
  });

  it("leaves the keys the logs are made of", () => {
    for (const key of [
      "msg",
      "requestId",
      "method",
      "path",
      "status",
      "durationMs",
      "code",
      "reason",
      "paymentId",
      "jobRef",
      "folio",
      "template",
      "mailId",
      "worker",
      "operation",
      "outcome",
      "iccid",
    ]) {
      expect(isSecretKey(key), key).toBe(false);
    }
  });
});

describe("redactSecrets", () => {
  it("hides secret keys at any depth, in objects and arrays", () => {
    const input = {
      msg: "something",
      requestId: "r-1",
      customer: { name: "Ana", contact: { email: "ana@example.com", phone: "5512345678" } },
      request: {
        headers: { authorization: "Bearer abc", cookie: "session=x", accept: "text/html" },
      },
      attempts: [{ password: "hunter2", at: 1 }, { nested: [{ deeper: { apiKey: "k" } }] }],
      config: { DATABASE_URL: "postgres://u:p@h/db", SMTP_URL: "smtp://u:p@h", PORT: 3000 },
      holder: { curp: "GOMC800101HDFRRL09", rfc: "GOMC800101AB1", nip: "1234" },
    };
    expect(redactSecrets(input)).toEqual({
      msg: "something",
      requestId: "r-1",
      customer: { name: "Ana", contact: { email: CENSORED, phone: CENSORED } },
      request: { headers: { authorization: CENSORED, cookie: CENSORED, accept: "text/html" } },
      attempts: [{ password: CENSORED, at: 1 }, { nested: [{ deeper: { apiKey: CENSORED } }] }],
      config: { DATABASE_URL: CENSORED, SMTP_URL: CENSORED, PORT: 3000 },
      holder: { curp: CENSORED, rfc: CENSORED, nip: CENSORED },
    });
  });

  it("never changes the caller's object, and returns it as it is when nothing is secret", () => {
    const clean = { msg: "request", status: 200, nested: { path: "/plans" } };
    expect(redactSecrets(clean)).toBe(clean);
    const secret = { outer: { token: "t", keep: 1 } };
    const redacted = redactSecrets(secret);
    expect(redacted).toEqual({ outer: { token: CENSORED, keep: 1 } });
    expect(secret.outer.token).toBe("t");
  });

  it("hides a whole object under a secret key, not only a string", () => {
    expect(redactSecrets({ credentials: { user: "u", pass: "p" } })).toEqual({
      credentials: CENSORED,
    });
  });

  it("reads an error's own fields, and survives cycles and great depth", () => {
    const error = Object.assign(new Error("refused"), {
      code: "E1",
      config: { headers: { Authorization: "Bearer secret" } },
    });
    const redacted = redactSecrets({ error }) as unknown as { error: Record<string, unknown> };
    expect(redacted.error.message).toBe("refused");
    expect(redacted.error.code).toBe("E1");
    expect(redacted.error.config).toEqual({ headers: { Authorization: CENSORED } });

    const cyclic: Record<string, unknown> = { name: "a" };
    cyclic.self = cyclic;
    expect(redactSecrets(cyclic)).toEqual({ name: "a", self: "[circular]" });

    let deep: Record<string, unknown> = { token: "t" };
    for (let level = 0; level < 20; level++) deep = { next: deep };
    expect(JSON.stringify(redactSecrets(deep))).not.toContain('"t"');
  });
});

describe("scrubText", () => {
  it("replaces addresses, long numbers, tokens, CURPs and RFCs in free text", () => {
    const message =
      "duplicate key value (email)=(ana.lopez+x@example.com.mx) for 55 1234 5678, Bearer abc.def, CURP GOMC800101HDFRRL09, RFC GOMC800101AB1, jwt eyJhbGciOi.eyJzdWIiOi.sig";
    const scrubbed = scrubText(message);
    expect(scrubbed).not.toMatch(/ana\.lopez|example\.com|1234 5678|abc\.def|GOMC|eyJ/);
    expect(scrubbed).toContain("[correo]");
    expect(scrubbed).toContain("[número]");
    expect(scrubText("no such table: orders (line 12:34)")).toBe(
      "no such table: orders (line 12:34)",
    );
  });
});
