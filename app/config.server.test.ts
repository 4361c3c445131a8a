import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.server";

const tempDir = () => mkdtempSync(path.join(tmpdir(), "config-test-"));
const longSecret = "a".repeat(32);

describe("loadConfig", () => {
  it("starts with embedded defaults on a bare machine", () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.PORT).toBe(3000);
    expect(config.NODE_ENV).toBe("development");
    expect(config.dataDir).toBe(dataDir);
    expect(config.sessionSecrets).toHaveLength(1);
  });

  it("keeps the generated development secret across restarts, in DATA_DIR", () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir }).sessionSecrets[0];
    const second = loadConfig({ DATA_DIR: dataDir }).sessionSecrets[0];
    expect(second).toBe(first);
    expect(readFileSync(path.join(dataDir, "session-secret"), "utf8")).toBe(first);
  });

  it("refuses to start in production without SESSION_SECRET, naming the variable", () => {
    expect(() => loadConfig({ NODE_ENV: "production", DATA_DIR: tempDir() })).toThrowError(
      /^Invalid configuration: SESSION_SECRET: required in production/,
    );
  });

  it("reads a comma-separated secret list for rotation, newest first", () => {
    const config = loadConfig({
      NODE_ENV: "production",
      DATA_DIR: tempDir(),
      SESSION_SECRET: `${"n".repeat(40)}, ${longSecret}`,
    });
    expect(config.sessionSecrets).toEqual(["n".repeat(40), longSecret]);
    expect(config.isProduction).toBe(true);
  });

  it("rejects a short secret", () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), SESSION_SECRET: "short" })).toThrow(ConfigError);
  });

  it.each([
    ["PORT", { PORT: "not-a-port" }],
    ["PORT", { PORT: "70000" }],
    ["NODE_ENV", { NODE_ENV: "staging" }],
    ["PUBLIC_BASE_URL", { PUBLIC_BASE_URL: "not a url" }],
    ["WHATSAPP_NUMBER", { WHATSAPP_NUMBER: "+52 55" }],
  ])("names %s in a one-line error when its value is bad", (variable, env) => {
    let message = "";
    try {
      loadConfig({ DATA_DIR: tempDir(), ...env });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.startsWith(`Invalid configuration: ${variable}:`)).toBe(true);
    expect(message).not.toContain("\n");
  });
});
