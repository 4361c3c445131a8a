import { spawnSync } from "node:child_process";
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

/**
 * USER_SRP_AUTH as the server build runs it: bundled like scripts/build-server.mjs (ESM, packages
 * left to Node's own loader) and run by the project's Node, not vitest. Node's loader hands a
 * CommonJS module's whole `exports` object to a default import, which vitest unwraps: the SRP
 * library's BigInteger once arrived as `{ default: BigInteger }` in the build, and every sign-in
 * against a real pool failed as "Invalid SRP challenge" while the unit tests passed.
 */

const ROOT = path.resolve(__dirname, "../..");

const ENTRY = `
import { srpPasswordVerifier } from "./app/auth/srp.server";
import { srpServer } from "./tests/unit/support/cognito-stub";

const target = { userPoolId: "us-east-1_TestPool", clientId: "client" };
const user = { poolName: "TestPool", userId: "0b7a7c1e-1111-4a2b-9c3d-123456789abc", password: "Clave-Segura-2026" };

async function signIn(password) {
  const cognito = srpServer({ ...user, tokens: { AuthenticationResult: { AccessToken: "access" } } });
  try {
    const answer = await srpPasswordVerifier({
      target,
      username: "ana@example.com",
      password,
      call: async (operation, body) => {
        const reply = operation === "InitiateAuth" ? cognito.initiateAuth(body) : cognito.respondToAuthChallenge(body);
        if (reply.status !== 200) throw new Error(reply.body.__type);
        return reply.body;
      },
    });
    return { signedIn: Boolean(answer.AuthenticationResult) };
  } catch (error) {
    return { refused: error.name === "CognitoError" ? error.code ?? error.message : error.message };
  }
}

console.log(JSON.stringify({ right: await signIn(user.password), wrong: await signIn("Otra-Clave-99") }));
`;

describe("USER_SRP_AUTH in the server build (Node's ESM loader, packages external)", () => {
  it("signs in with the right password, and the wrong one is refused by the pool, not by an error of ours", async () => {
    const bundled = await build({
      stdin: { contents: ENTRY, resolveDir: ROOT, loader: "ts", sourcefile: "srp-build-entry.ts" },
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node24",
      packages: "external",
      define: { __dirname: JSON.stringify(path.join(ROOT, "tests/unit/support")) },
      write: false,
      logLevel: "silent",
    });
    // Evaluated from standard input, bare imports resolve from the working directory: the repo's.
    const run = spawnSync(process.execPath, ["--input-type=module"], {
      cwd: ROOT,
      input: bundled.outputFiles[0]!.text,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({
      right: { signedIn: true },
      wrong: { refused: "NotAuthorizedException" },
    });
  }, 90_000);
});
