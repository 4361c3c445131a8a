import { createRequire } from "node:module";

/**
 * The packages the embedded identity emulator runs on. They are development dependencies: a
 * production install (`npm install --omit=dev`) leaves them out, cognito-local's ~120 MB of the
 * end-of-support AWS SDK v2 with them, and runs on a real user pool (decision 0087).
 */
export const EMULATOR_PACKAGES = ["cognito-local", "stormdb", "otplib"] as const;

/** Those of the emulator's packages this install lacks (none after a plain `npm install`). */
export function missingEmulatorPackages(): string[] {
  const require = createRequire(import.meta.url);
  return EMULATOR_PACKAGES.filter((name) => {
    try {
      require.resolve(`${name}/package.json`);
      return false;
    } catch {
      return true;
    }
  });
}
