import { spawnSync } from "node:child_process";
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

/**
 * SRP as the server build runs it: bundled like scripts/build-server.mjs (ESM, packages left to
 * Node's own loader) and run by plain `node`, not vitest. Node's loader hands a CommonJS module's
 * whole `exports` object to a default import, which vitest unwraps; amazon-cognito-identity-js's
 * BigInteger once arrived as `{ default: BigInteger }` there, and every device proof of the build
 * failed as "Invalid SRP challenge" while the unit tests passed.
 */

const ROOT = path.resolve(__dirname, "../..");

const ENTRY = `
import { answerDeviceChallenge, deviceVerifier } from "./app/auth/srp.server";
import { startDeviceSrp } from "./app/auth/emulator/device-srp.server";

const deviceKey = "us-west-2_0b7a7c1e-1111-4a2b-9c3d-123456789abc";
const deviceGroupKey = "-Ab3dEf9";
const confirmed = await deviceVerifier(deviceGroupKey, deviceKey);

async function prove(randomPassword) {
  let round = null;
  let verified = false;
  try {
    await answerDeviceChallenge({
      clientId: "client",
      username: "user",
      session: "session",
      device: { deviceKey, deviceGroupKey, randomPassword },
      call: async (_operation, body) => {
        if (body.ChallengeName === "DEVICE_SRP_AUTH") {
          round = startDeviceSrp({
            passwordVerifier: confirmed.PasswordVerifier,
            salt: confirmed.Salt,
            deviceGroupKey,
            deviceKey,
            srpA: body.ChallengeResponses.SRP_A,
          });
          return { ChallengeName: "DEVICE_PASSWORD_VERIFIER", Session: "next", ChallengeParameters: round.parameters };
        }
        verified = round.verify(body.ChallengeResponses);
        return {};
      },
    });
    return { verified };
  } catch (error) {
    return { verified, error: error.message };
  }
}

console.log(JSON.stringify({
  rightPassword: await prove(confirmed.randomPassword),
  wrongPassword: await prove("not-the-devices-password-0123456789"),
}));
`;

describe("SRP in the server build (Node's ESM loader, packages external)", () => {
  it("a remembered device's proof passes with its password and fails, without an error, with another", async () => {
    const bundled = await build({
      stdin: { contents: ENTRY, resolveDir: ROOT, loader: "ts", sourcefile: "srp-build-entry.ts" },
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      write: false,
      logLevel: "silent",
    });
    // Evaluated from standard input, bare imports resolve from the working directory: the repo's.
    const run = spawnSync(process.execPath, ["--input-type=module"], {
      cwd: ROOT,
      input: bundled.outputFiles[0].text,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({
      rightPassword: { verified: true },
      wrongPassword: { verified: false },
    });
  }, 90_000);
});
