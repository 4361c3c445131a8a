import { expect, test } from "@playwright/test";
import { startServer, waitForHealth } from "../support/server-process";

// Operator-facing behaviour of the server process itself; no browser involved, so one project runs it.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "process checks run once");

let nextPort = 3190 + Math.floor(Math.random() * 5) * 2;

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
    await waitForHealth(baseUrl, server);
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
