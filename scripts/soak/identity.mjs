// Customer accounts made before the timed run, the way an operator would: Cognito's admin API on
// the embedded emulator (the production server has no development outbox to read codes from).
// The same two calls as tests/e2e/support/customers.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { startServer, stopServer, waitForLogLine } from "./server.mjs";

const EMULATOR_STARTED = "embedded identity emulator (cognito-local) started";

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

/**
 * `count` customer accounts in the identity emulator of a server on `dataDir`, before the
 * measured run. The emulator listens on a port of its own chosen at each start, and only its
 * startup line (at info) names it; this short first start reads it, creates the accounts and
 * stops. The measured run then starts on the same DATA_DIR, where the pool and its users persist.
 */
export async function prepareCustomers({
  dataDir,
  sessionSecret,
  extraEnv,
  count,
  log = () => {},
}) {
  const server = await startServer({ dataDir, sessionSecret, logLevel: "info", extraEnv });
  let prepared;
  try {
    const { endpoint, userPoolId } = await waitForLogLine(server, EMULATOR_STARTED);
    const runId = Date.now().toString(36);
    const started = performance.now();
    const accounts = await createCustomers({ endpoint, userPoolId }, count, runId);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    log(`${accounts.length} accounts created in ${seconds} s`);
    prepared = { accounts, userPoolId };
  } finally {
    await stopServer(server);
  }
  // The accounts must be on disk for the measured start to find them: a clean stop.
  const stopped = await server.exited;
  if (stopped.code !== 0) {
    throw new Error(`the preparation server stopped with ${JSON.stringify(stopped)}`);
  }
  return prepared;
}
