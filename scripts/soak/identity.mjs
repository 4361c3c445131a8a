// Customer accounts made before the timed run, the way an operator would: Cognito's admin API on
// the embedded emulator (the production server has no development outbox to read codes from).
// The same two calls as tests/e2e/support/customers.ts.
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * Several calls at once, as an operator's script would make them: the emulator's pool file must
 * take overlapping changes (app/auth/emulator/store.server.ts), and the measured run restarts the
 * server on this DATA_DIR and must find every account on disk.
 */
const CREATE_CONCURRENCY = 8;

/** Meets the default pool policy: 8+ characters, lower, upper, number and symbol. */
export const CUSTOMER_PASSWORD = "Recarga#2026ok";

async function adminCall(endpoint, operation, body) {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-amz-json-1.1",
      "X-Amz-Target": `AWSCognitoIdentityProviderService.${operation}`,
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) {
    throw new Error(`${operation} answered ${response.status}: ${await response.text()}`);
  }
}

/** A confirmed customer with a verified email and a permanent password. */
async function createCustomer({ endpoint, userPoolId }, email) {
  await adminCall(endpoint, "AdminCreateUser", {
    UserPoolId: userPoolId,
    Username: email,
    MessageAction: "SUPPRESS",
    UserAttributes: [
      { Name: "email", Value: email },
      { Name: "email_verified", Value: "true" },
    ],
  });
  await adminCall(endpoint, "AdminSetUserPassword", {
    UserPoolId: userPoolId,
    Username: email,
    Password: CUSTOMER_PASSWORD,
    Permanent: true,
  });
  return { email, password: CUSTOMER_PASSWORD };
}

/** `count` accounts, CREATE_CONCURRENCY at a time. */
export async function createCustomers(emulator, count, runId) {
  const emails = Array.from({ length: count }, (_, index) => `soak-${runId}-${index}@example.com`);
  const customers = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CREATE_CONCURRENCY, count) }, async () => {
      while (next < count) {
        const index = next++;
        customers[index] = await createCustomer(emulator, emails[index]);
      }
    }),
  );
  return customers;
}

/**
 * The emulator's pool file after the run: still readable JSON and still holding every account.
 * A corrupt or emptied file loses every account at the next start.
 */
export function inspectIdentityStore(dataDir, userPoolId, accounts) {
  const file = path.join(dataDir, "cognito-local", "db", `${userPoolId}.json`);
  let pool;
  try {
    pool = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    return { ok: false, detail: `${file} is no longer readable: ${error.message}` };
  }
  const stored = new Set(
    Object.values(pool.Users ?? {}).flatMap((user) =>
      (user.Attributes ?? [])
        .filter((attribute) => attribute.Name === "email")
        .map((attribute) => attribute.Value),
    ),
  );
  const lost = accounts.filter((account) => !stored.has(account.email));
  return lost.length === 0
    ? { ok: true, detail: `readable, all ${accounts.length} accounts on disk` }
    : { ok: false, detail: `${lost.length} of ${accounts.length} accounts are gone from ${file}` };
}
