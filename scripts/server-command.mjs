// The node arguments `npm start` runs the server with (package.json is the one place they are
// written), so scripts that start the server measure exactly what an operator runs.
import { readFileSync } from "node:fs";

/** The node arguments of one of package.json's scripts, which must be a plain `node …`. */
export function npmScriptArgs(name) {
  const { scripts } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  const [command, ...args] = scripts[name].split(/\s+/);
  if (command !== "node") throw new Error(`npm run ${name} must run node, not ${command}`);
  return args;
}

export function serverArgs() {
  return npmScriptArgs("start");
}

/**
 * What a production server needs to run on the embedded test doubles (payment sandbox, identity
 * emulator): the operator's explicit opt-in and the public address it answers on (decision 0058).
 */
export function productionTestEnvironment(publicOrigin) {
  return {
    ALLOW_SANDBOX_PAYMENTS: "true",
    ALLOW_SANDBOX_ESIM: "true",
    ALLOW_CAPTURED_MAIL: "true",
    ALLOW_SIMULATED_BSS: "true",
    ALLOW_CAPTURED_SMS: "true",
    ALLOW_SANDBOX_ID_VALIDATION: "true",
    ALLOW_SANDBOX_INVOICES: "true",
    ALLOW_EMBEDDED_IDENTITY: "true",
    PUBLIC_BASE_URL: publicOrigin,
  };
}
