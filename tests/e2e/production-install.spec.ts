import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { DEPLOYED } from "../../scripts/deploy-files.mjs";
import { freePort, startServer, stopServer, waitForHealth } from "../support/server-process";
import {
  cartWith,
  fillCheckout,
  payWithCard,
  submitCheckout,
  TEST_CARDS,
  uniqueEmail,
} from "./support/commerce";

// A production install as an operator makes one (decision 0087): the build made with the dev
// dependencies (`npm run build`, before the browser tests), then only what a deploy carries,
// copied to a directory outside this project (no node_modules of ours above it), and there
// `npm install --omit=dev` with this lockfile. The operator's commands run in that directory.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "one install is enough");

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
/** The embedded defaults' development dependencies, and the dev tools the scripts once needed. */
const DEV_ONLY = ["aws-sdk", "cognito-local", "stormdb", "otplib", "i18next", "tsx", "esbuild"];
/**
 * One install directory per checkout, kept between runs: npm brings its node_modules to this
 * lockfile's production tree each time (removing whatever is not in it), so only the first run
 * downloads it. Nothing is compiled (better-sqlite3 ships its Node-API binary in its package).
 * Everything else in it is replaced every run.
 */
const installDir = path.join(
  tmpdir(),
  `storefront-production-install-${createHash("sha256").update(projectRoot).digest("hex").slice(0, 12)}`,
);
/** A user pool that does not answer: the server starts on it, and only /readyz notices. */
const REAL_POOL = {
  COGNITO_USER_POOL_ID: "us-east-1_productioninstall",
  COGNITO_CLIENT_ID: "productioninstallclient",
  COGNITO_ENDPOINT: "http://127.0.0.1:9/",
};
const SESSION_SECRET = "production-install-secret-0123456789-abcdefgh";

/**
 * The operator's PATH: a Node 24 first (the one running these tests, the `node` package's, stands
 * for the server's installed Node), then the machine's, without this project's node_modules/.bin.
 */
const operatorPath = [
  path.dirname(process.execPath),
  ...(process.env.PATH ?? "").split(path.delimiter).filter((dir) => !dir.includes("node_modules")),
].join(path.delimiter);

/**
 * What the operator's shell passes on: the path, the home (npm's settings and cache), a proxy and
 * the certificate authorities it trusts (a proxy that inspects TLS has its own), never what the npm running these tests says of this project (npm_config_local_prefix…).
 */
function operatorEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  const passed =
    /^(HOME|https?_proxy|no_proxy|NODE_EXTRA_CA_CERTS|npm_config_(cache|userconfig|registry|cafile))$/i;
  const kept = Object.entries(process.env).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && passed.test(entry[0]),
  );
  return {
    ...Object.fromEntries(kept),
    PATH: operatorPath,
    NODE_ENV: "test",
    LOG_LEVEL: "info",
    ...extra,
  };
}

/** `npm <args>` in the install directory, as the operator types it. */
function npm(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000) {
  const run = spawnSync("npm", args, {
    cwd: installDir,
    env: operatorEnvironment(env) as unknown as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: timeoutMs,
  });
  return { code: run.status, stdout: run.stdout ?? "", stderr: run.stderr ?? "" };
}

/** Every node_modules/<name> below `dir` whose name is in `names`, at any depth. */
function nestedPackages(dir: string, names: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const visit = (modules: string) => {
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const packages = entry.name.startsWith("@")
        ? readdirSync(path.join(modules, entry.name)).map((name) => `${entry.name}/${name}`)
        : [entry.name];
      for (const name of packages) {
        const packageDir = path.join(modules, name);
        if (names.has(name)) found.push(path.relative(dir, packageDir));
        const inner = path.join(packageDir, "node_modules");
        if (existsSync(inner)) visit(inner);
      }
    }
  };
  visit(dir);
  return found;
}

function deploy() {
  mkdirSync(installDir, { recursive: true });
  for (const entry of readdirSync(installDir)) {
    if (entry !== "node_modules") rmSync(path.join(installDir, entry), { recursive: true });
  }
  for (const entry of DEPLOYED) {
    cpSync(path.join(projectRoot, entry), path.join(installDir, entry), { recursive: true });
  }
}

test("npm install --omit=dev gives a store that runs on a real pool, migrates, answers npm run ops and refuses the emulator", async ({
  browser,
}) => {
  test.setTimeout(15 * 60_000);

  await test.step("install without dev dependencies, with the operator's Node 24", () => {
    const node = spawnSync("node", ["--version"], {
      env: operatorEnvironment() as unknown as NodeJS.ProcessEnv,
      encoding: "utf8",
    });
    expect(node.stdout.trim()).toMatch(/^v24\./);
    deploy();
    const install = npm(
      ["install", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund"],
      {},
      12 * 60_000,
    );
    expect(install.code, install.stderr).toBe(0);
    for (const name of DEV_ONLY) {
      expect(existsSync(path.join(installDir, "node_modules", name)), name).toBe(false);
    }
    // Nor nested under another package.
    expect(nestedPackages(path.join(installDir, "node_modules"), new Set(DEV_ONLY))).toEqual([]);
    // Nothing above the install lends it a package either.
    const resolveThere = createRequire(path.join(installDir, "dist", "server.js")).resolve;
    expect(() => resolveThere("cognito-local/package.json")).toThrow();
    expect(resolveThere("express")).toContain(installDir);
  });

  await test.step("without a pool the server refuses the embedded emulator, in one line", async () => {
    const server = startServer(
      operatorEnvironment({ PORT: String(freePort(test.info().workerIndex)) }),
      { cwd: installDir },
    );
    // A server that wrongly starts is stopped here, and the test fails.
    const code = await Promise.race([
      server.exited,
      new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 20_000)),
    ]);
    if (code === "still running") await stopServer(server);
    expect(code).toBe(1);
    const lines = server.output.join("").trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: COGNITO_USER_POOL_ID: .*cognito-local/);
  });

  await test.step("npm run migrate on an empty database, for deploys that migrate first", () => {
    const emptyDir = mkdtempSync(path.join(tmpdir(), "storefront-production-migrate-"));
    try {
      const migrate = npm(["run", "--silent", "migrate"], {
        ...REAL_POOL,
        DATA_DIR: emptyDir,
        SESSION_SECRET,
      });
      expect(migrate.code, migrate.stderr).toBe(0);
      expect(migrate.stdout).toContain('"msg":"migration applied"');
      expect(migrate.stdout.trim().split("\n").at(-1)).toContain('"msg":"database migrated"');
    } finally {
      rmSync(emptyDir, { recursive: true, force: true });
    }
  });

  // The server makes this one: it migrates an empty DATA_DIR at start.
  const dataDir = mkdtempSync(path.join(tmpdir(), "storefront-production-data-"));
  const operator = { ...REAL_POOL, DATA_DIR: dataDir, SESSION_SECRET };

  const port = freePort(test.info().workerIndex);
  const base = `http://localhost:${port}`;
  const server = startServer(operatorEnvironment({ ...operator, PORT: String(port) }), {
    cwd: installDir,
  });
  try {
    await waitForHealth(base, server);
    const ready = (await (await fetch(`${base}/readyz`)).json()) as { testDoubles: string[] };
    expect(ready.testDoubles).not.toContain("identity");

    const folio = await test.step("a guest buys a plan", async () => {
      const context = await browser.newContext({ baseURL: base, locale: "es-MX" });
      const page = await context.newPage();
      try {
        await cartWith(page, "Conecta 200");
        await page.goto("/checkout");
        await fillCheckout(page, uniqueEmail("produccion"));
        await submitCheckout(page);
        await payWithCard(page, TEST_CARDS.approved);
        return (await page.getByTestId("order-folio").textContent())!;
      } finally {
        await context.close();
      }
    });

    await test.step("npm run ops lists it from the server's database", () => {
      const listed = npm(
        ["run", "--silent", "ops", "--", "pedidos", "--estado", "pagado"],
        operator,
      );
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain(folio);
      expect(listed.stdout).toContain("1 pedido.");
    });
  } finally {
    expect(await stopServer(server)).toBe(0);
  }

  await test.step("npm run migrate on the database the server made changes nothing", () => {
    const again = npm(["run", "--silent", "migrate"], operator);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toContain("migration applied");
  });
  rmSync(dataDir, { recursive: true, force: true });
});
