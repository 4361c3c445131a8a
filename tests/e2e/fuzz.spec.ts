import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { AUTO_TOPUP_FIELDS } from "../../app/auto-topup/auto-topup-schema";
import { CHECKOUT_FIELDS } from "../../app/checkout/checkout-schema";
import { portabilitySchema } from "../../app/portability/portability-schema";
import { isLocaleText } from "../support/locale-texts";
import { freePort, startServer, stopServer, waitForHealth } from "../support/server-process";
import { createCustomer } from "./support/customers";

// Hostile submissions to every form over HTTP (issue 8): wrong types, huge values, control
// characters, unicode, missing and repeated fields, wrong content types, malformed encodings and
// 1 MB bodies. Every answer must be below 500, and every refusal a 4xx that says why in Spanish.
// A server of its own, with the auth rate limits raised so that the guesses reach validation
// (the limits themselves are proven in security*.spec.ts).
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP fuzzing runs once");

const SUBMISSIONS = Number(process.env.FUZZ_SUBMISSIONS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const CONCURRENCY = 12;

/** The fields each form's action reads: its schema's, and the form's intent or redirect. */
const FORMS: Record<string, string[]> = {
  "/cart": ["intent", "id", "redirectTo"],
  "/checkout": CHECKOUT_FIELDS,
  "/portabilidad": ["intent", ...Object.keys(portabilitySchema.shape)],
  "/recarga": [
    "email",
    "phone_number",
    "phone_number_confirm",
    "saved_line",
    "amount",
    "payment_method",
    "save_card",
    "idempotency_key",
    "unregistered_ok",
  ],
  // Paying an order or a top-up again (an unknown one: a 404 page), and the sandbox's pages.
  "/confirmation?pedido=ord_fuzz": ["payment_method", "intent", "position"],
  "/recarga/AAAAAAAAAAAAAAAAAAAAAA": ["payment_method", "save_card"],
  // Saved cards and a line's automatic top-up (issue 29): the schema's fields; a number that is not
  // one of the account's lines is the site's 404.
  "/my-account/tarjetas": ["intent", "card_id"],
  "/my-account/lineas/5512345678/recarga-automatica": [...AUTO_TOPUP_FIELDS],
  "/pedido": ["folio", "correo"],
  // The invoicing lookup, and an unknown receipt's invoice form (a 404 page).
  "/facturacion": ["folio", "correo"],
  "/facturacion?recarga=AAAAAAAAAAAAAAAAAAAAAA": [
    "rfc",
    "rfc_guardado",
    "nombre",
    "regimen",
    "codigo_postal",
    "uso",
    "correo",
    "tarjeta",
  ],
  "/saldo": ["intent", "phone_number", "code", "idempotency_key"],
  "/registro-de-linea?tipo=moral": [
    "intent",
    "phone_number",
    "code",
    "idempotency_key",
    "holder_kind",
    "full_name",
    "curp",
    "identification_type",
    "passport_number",
    "nationality",
    "business_name",
    "rfc",
    "representative_name",
    "representative_curp",
    "representative_identification_type",
    "document_number",
    "id_photo",
    "selfie",
    "email",
  ],
  "/my-account/lineas": ["intent", "phone_number", "code", "idempotency_key"],
  "/activar": ["iccid"],
  // Issue 48: the request for an assisted validation.
  "/registro-de-linea/validacion-asistida": ["contacto", "numero", "franja", "idempotency_key"],
  "/pedido/abrir?clave=fuzz": ["clave"],
  // An order's holder showing their identification (an unknown order: a 404 page).
  "/pedido/titular?pedido=ord_fuzz": [
    "identification_type",
    "document_number",
    "id_photo",
    "selfie",
    "idempotency_key",
  ],
  "/sandbox/pago/chk_fuzz": ["intent", "card_number", "card_expiry", "card_cvc", "cardholder_name"],
  "/auth/sign-in": ["username", "password", "redirectTo"],
  "/auth/sign-up": ["username", "password", "confirm_password", "country_code", "phone_number"],
  "/auth/forgot-password": ["username"],
  "/auth/confirm-sign-up": ["intent", "username", "confirmation_code"],
  "/auth/confirm-reset-password": [
    "intent",
    "username",
    "confirmation_code",
    "password",
    "confirm_password",
  ],
  "/auth/confirm-sign-in": ["confirmation_code"],
  "/auth/sign-out": ["intent"],
  "/my-account": ["intent", "mfa"],
  "/payments/webhook/sandbox": ["type", "id", "amount", "status"],
};

const decodeHtml = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, "\n")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&")
    .trim();

/** What a refused page tells the customer: field messages, form alerts, an error page's title. */
function refusalTexts(body: string, contentType: string): string[] {
  if (contentType.includes("application/json")) {
    try {
      const error = (JSON.parse(body) as { error?: unknown }).error;
      return typeof error === "string" ? [error] : [];
    } catch {
      return [];
    }
  }
  if (!contentType.includes("text/html")) return [body.trim()];
  const patterns = [
    /<div id="[^"]*-error"[^>]*>([\s\S]*?)<\/div>/g,
    /<[a-z]+ [^>]*role="alert"[^>]*>([\s\S]*?)<\/(?:p|div)>/g,
    /<h1[^>]*>([\s\S]*?)<\/h1>/g,
  ];
  return patterns.flatMap((pattern) =>
    [...body.matchAll(pattern)]
      .flatMap((match) => decodeHtml(match[1]).split("\n"))
      .map((text) => text.trim())
      .filter(Boolean),
  );
}

interface Submission {
  route: string;
  contentType: string | null;
  body: string | FormData;
  shape: string;
}

const hostileValue = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.string({ minLength: 2_000, maxLength: 20_000 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\u0000\u0001\u001f\u007f",
    "\r\nSet-Cookie: x=1",
    "\u202eRTL",
    "e\u0301\u0301\u0301",
    "😀👨‍👩‍👧",
    "\ud800",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "../../etc/passwd",
    "conecta-100",
    "add",
    "remove",
    "5512345678",
    "55 1234 5678",
    "GOMA850312MDFRRN09",
    "8952140061234567890",
    "4821",
    "ana@example.com",
    "Conecta-2025x",
    "100",
    "-1",
    "1e309",
    "NaN",
    "true",
    "on",
    "//sitio-ajeno.example",
  ),
);

function submissionFor(route: string) {
  const known = FORMS[route];
  const field = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...known) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  );
  const pairs = fc.array(fc.tuple(field, hostileValue), { maxLength: 16 });
  const urlencoded = pairs.map((entries) => ({
    contentType: "application/x-www-form-urlencoded",
    body: new URLSearchParams(entries).toString(),
    shape: "urlencoded",
  }));
  const malformed = fc
    .array(
      fc.oneof(
        fc.constantFrom("%", "%Z", "%ED%A0%80", "%C3", "&&", "==", "+", "%00", "%FF%FE"),
        fc.constantFrom(...known).map((name) => `${name}=`),
        fc.string({ unit: "binary", maxLength: 8 }),
      ),
      { minLength: 1, maxLength: 20 },
    )
    .map((parts) => ({
      contentType: "application/x-www-form-urlencoded",
      body: parts.join(""),
      shape: "malformed urlencoding",
    }));
  const multipart = pairs.map((entries) => {
    const form = new FormData();
    for (const [name, value] of entries) form.append(name, value);
    return { contentType: null, body: form as string | FormData, shape: "multipart" };
  });
  const wrongType = fc
    .tuple(
      fc.constantFrom("application/json", "text/plain", "application/xml", "", "text/html"),
      fc.oneof(
        pairs.map((entries) => JSON.stringify(Object.fromEntries(entries))),
        fc.string(),
      ),
    )
    .map(([contentType, body]) => ({
      contentType: contentType || null,
      body,
      shape: `wrong type ${contentType || "(none)"}`,
    }));
  const huge = fc.constantFrom(70_000, 1_048_576, 1_200_000).map((size) => ({
    contentType: "application/x-www-form-urlencoded",
    body: `${known[0]}=${"a".repeat(size)}`,
    shape: `${size} bytes`,
  }));
  return fc
    .oneof(
      { weight: 12, arbitrary: urlencoded },
      { weight: 3, arbitrary: malformed },
      { weight: 3, arbitrary: multipart },
      { weight: 2, arbitrary: wrongType },
      { weight: 1, arbitrary: huge },
    )
    .map((shape): Submission => ({ route, ...shape }));
}

test("10 000 hostile submissions to every form: no 5xx, and every refusal in Spanish", async ({
  playwright,
}) => {
  // About two minutes alone; the whole suite beside it, on a machine whose speed varies, may
  // take twice that.
  test.setTimeout(420_000);
  const port = freePort(test.info().workerIndex);
  const base = `http://127.0.0.1:${port}`;
  const server = startServer({
    NODE_ENV: "test",
    PORT: String(port),
    LOG_LEVEL: "warn",
    AUTH_RATE_LIMIT_PER_IP: "1000000",
    AUTH_RATE_LIMIT_PER_USERNAME: "1000000",
  });
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  let transportRetries = 0;
  try {
    await waitForHealth(base, server);
    const setup = await playwright.request.newContext({ baseURL: base });
    const customer = await createCustomer(setup, "fuzz");
    const signIn = await setup.post("/auth/sign-in", {
      form: { username: customer.email, password: customer.password },
      maxRedirects: 0,
    });
    expect(signIn.status()).toBe(303);
    const sessionCookie = (await setup.storageState()).cookies
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join("; ");
    await setup.dispose();

    const routes = Object.keys(FORMS);
    const cases = fc.sample(fc.constantFrom(...routes).chain(submissionFor), {
      numRuns: SUBMISSIONS,
      seed: SEED,
    });
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const index = next++;
        const submission = cases[index];
        const signedIn = index % 2 === 0;
        const headers: Record<string, string> = { Origin: base };
        if (submission.contentType) headers["Content-Type"] = submission.contentType;
        if (signedIn) headers.Cookie = sessionCookie;
        const label = `seed ${SEED} case ${index}: ${submission.route} (${submission.shape}${signedIn ? ", signed in" : ""})`;
        const send = () =>
          fetch(`${base}${submission.route}`, {
            method: "POST",
            headers,
            body: submission.body,
            redirect: "manual",
            // A request left unanswered is a finding with its seed, not the test's timeout.
            signal: AbortSignal.timeout(30_000),
          });
        let response: Response;
        try {
          // A connection lost once on a loaded machine is sent again; the same submission losing
          // its answer twice is the server's doing (as a reset after an unread 1 MB body was).
          response = await send().catch(() => {
            transportRetries += 1;
            return send();
          });
        } catch (error) {
          const cause = (error as { cause?: { code?: string; message?: string } }).cause;
          failures.push(`${label}: no answer (${String(error)}: ${cause?.code ?? cause?.message})`);
          continue;
        }
        const text = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500) {
          failures.push(`${label}: ${response.status}`);
        } else if (response.status >= 400) {
          const told = refusalTexts(text, response.headers.get("content-type") ?? "");
          const spanish = told.some(isLocaleText);
          const english =
            /\b(Invalid input|Too (small|big)|Required|[Ee]xpected (string|number|array))\b/.test(
              text,
            );
          if (!spanish || english) {
            failures.push(
              `${label}: ${response.status} without a Spanish reason: ${JSON.stringify(told).slice(0, 300)}`,
            );
          }
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } finally {
    await stopServer(server);
  }
  const summary = [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}: ${count}`);
  test
    .info()
    .annotations.push({ type: "statuses", description: `seed ${SEED}; ${summary.join(", ")}` });
  console.log(
    `fuzz seed ${SEED}; ${summary.join(", ")}; sent again after a lost connection: ${transportRetries}`,
  );
  expect(failures.slice(0, 20), `${failures.length} failures, seed ${SEED}`).toEqual([]);
  expect([...statuses.values()].reduce((sum, count) => sum + count, 0)).toBe(SUBMISSIONS);
  // A few lost connections are the machine; dozens (47 in 1 500 when they were a bug) are not.
  expect(transportRetries, "connections lost and sent again").toBeLessThanOrEqual(3);
  expect(server.output.join("")).not.toMatch(/"level":50/);
});
