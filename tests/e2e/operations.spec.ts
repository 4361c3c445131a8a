import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

// Operator-facing behaviour of the server process itself; no browser involved, so one project runs it.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "process checks run once");

let nextPort = 3190 + Math.floor(Math.random() * 5) * 2;

function startServer(env: Record<string, string>) {
  const output: string[] = [];
  const child = spawn(process.execPath, ["dist/server.js"], {
    env: {
      PATH: process.env.PATH ?? "",
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "storefront-ops-")),
      LOG_LEVEL: "info",
      ...env,
    } as unknown as NodeJS.ProcessEnv,
  });
  child.stdout.on("data", (chunk) => output.push(String(chunk)));
  child.stderr.on("data", (chunk) => output.push(String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output, exited };
}

async function waitForHealth(baseUrl: string, child: ChildProcess) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error("server exited early");
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("server did not become healthy");
}

test("a bad setting stops the start with one line naming the variable", async () => {
  const { output, exited } = startServer({ PORT: "abc" });
  expect(await exited).toBe(1);
  const lines = output.join("").trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^Invalid configuration: PORT:/);
});

test("production refuses to start without SESSION_SECRET", async () => {
  const { output, exited } = startServer({ NODE_ENV: "production", PORT: String(nextPort++) });
  expect(await exited).toBe(1);
  expect(output.join("")).toMatch(/^Invalid configuration: SESSION_SECRET:/);
});

test("production sends HSTS and secure headers, logs requests as JSON without query strings, and stops cleanly on SIGTERM", async () => {
  const port = nextPort++;
  const baseUrl = `http://localhost:${port}`;
  const server = startServer({
    NODE_ENV: "production",
    PORT: String(port),
    SESSION_SECRET: "operations-test-secret-0123456789-abcdefghij",
  });
  try {
    await waitForHealth(baseUrl, server.child);
    const response = await fetch(`${baseUrl}/plans?filtro=secreto`);
    expect(response.status).toBe(200);
    const headers = response.headers;
    expect(headers.get("strict-transport-security")).toMatch(/max-age=31536000/);
    const csp = headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    const html = await response.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(headers.get("set-cookie")).toContain("Secure");

    const asset = /href="(\/build\/_assets\/[^"]+\.css)"/.exec(html)?.[1];
    const cached = await fetch(`${baseUrl}${asset}`);
    expect(cached.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const locale = await fetch(`${baseUrl}/locales/es/common.json`);
    expect(locale.headers.get("cache-control")).toBe("public, max-age=86400");

    const crossSite = await fetch(`${baseUrl}/plans`, {
      method: "POST",
      headers: { Origin: "https://sitio-ajeno.example" },
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.text()).toContain("origen no permitido");

    const logLines = server.output
      .join("")
      .split("\n")
      .filter((line) => line.includes('"msg":"request"'));
    const planRequest = logLines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.path === "/plans");
    expect(planRequest).toMatchObject({ method: "GET", path: "/plans", status: 200 });
    expect(typeof planRequest.durationMs).toBe("number");
    expect(planRequest.requestId).toBeTruthy();
    expect(server.output.join("")).not.toContain("secreto");
  } finally {
    server.child.kill("SIGTERM");
  }
  expect(await server.exited).toBe(0);
  expect(server.output.join("")).toContain('"msg":"stopped"');
});
