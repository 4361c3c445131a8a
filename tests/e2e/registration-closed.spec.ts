import { expect, test } from "@playwright/test";
import { freePort, startServer, stopServer, waitForHealth } from "../support/server-process";

test("with registration closed there is no sign-up tab, and the sign-up page and form are a 404", async ({
  browser,
  javaScriptEnabled,
}) => {
  const port = freePort(test.info().workerIndex);
  const base = `http://localhost:${port}`;
  const server = startServer({
    NODE_ENV: "test",
    PORT: String(port),
    SESSION_SECRET: "closed-registration-secret-0123456789-abcdefghij",
    SIGN_UP_ENABLED: "false",
  });
  const context = await browser.newContext({ baseURL: base, javaScriptEnabled });
  try {
    await waitForHealth(base, server);
    const page = await context.newPage();
    await page.goto("/auth/sign-in");
    await expect(page.getByRole("heading", { name: "Inicia sesión" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Crear cuenta" })).toHaveCount(0);
    const response = await page.goto("/auth/sign-up");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Página no encontrada");
    const posted = await page.request.post("/auth/sign-up", {
      form: { username: "ana@example.com", password: "Conecta-2025x" },
      headers: { Origin: base },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(404);
  } finally {
    await context.close();
    await stopServer(server);
  }
});
