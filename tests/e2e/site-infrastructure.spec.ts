import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { BUILD_CHECK_INTERVAL_MS, BUILD_VERSION_PATH } from "../../app/lib/new-build";
import { buildAnotherVersion } from "../support/another-build";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../support/server-process";

// Issue 34, the spec's site infrastructure rows (§7, decision 0108): a client navigation's data
// request meeting a passing failure is sent once more, and a tab opened before a deploy loads the
// new build at its next navigation.

const mainNavigation = (page: Page) =>
  page.getByRole("navigation", { name: "Navegación principal" });

/** Marks the document the page is: gone once the browser loads another one. */
const markDocument = (page: Page) =>
  page.evaluate(() => ((window as unknown as { sameDocument?: boolean }).sameDocument = true));
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);
const hydrated = (page: Page) => page.waitForFunction(() => "__reactRouterDataRouter" in window);

test.describe("a client navigation's data request", () => {
  test.skip(
    ({ javaScriptEnabled }) => !javaScriptEnabled,
    "without JavaScript every navigation is a page load, and the browser's to repeat",
  );

  test("answered 503 once (a proxy, a restart) is sent again and the navigation lands", async ({
    page,
  }) => {
    await page.goto("/plans");
    await hydrated(page);
    const attempts: string[] = [];
    await page.route("**/help-center.data*", async (route) => {
      attempts.push(route.request().method());
      if (attempts.length === 1) {
        await route.fulfill({
          status: 503,
          contentType: "text/plain",
          body: "Service Unavailable",
        });
      } else {
        await route.continue();
      }
    });
    await markDocument(page);
    await mainNavigation(page).getByRole("link", { name: "Centro de ayuda" }).click();
    await expect(page).toHaveURL(/\/help-center$/);
    await expect(page.getByRole("heading", { name: "Categorías" })).toBeVisible();
    await expect(page.getByTestId("server-error")).toHaveCount(0);
    expect(attempts).toEqual(["GET", "GET"]);
    expect(await sameDocument(page)).toBe(true);
  });

  test("failing twice is the error page: one retry, no more", async ({ page }) => {
    await page.goto("/plans");
    await hydrated(page);
    const attempts: string[] = [];
    await page.route("**/help-center.data*", async (route) => {
      attempts.push(route.request().method());
      await route.fulfill({ status: 502, contentType: "text/plain", body: "Bad Gateway" });
    });
    await mainNavigation(page).getByRole("link", { name: "Centro de ayuda" }).click();
    await expect(page.getByTestId("server-error")).toBeVisible();
    await page.waitForTimeout(500);
    expect(attempts).toEqual(["GET", "GET"]);
  });

  test("a form sent with JavaScript is never sent twice, whatever the answer", async ({ page }) => {
    await page.goto("/plans");
    await hydrated(page);
    const posts: string[] = [];
    await page.route("**/cart.data*", async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      posts.push(route.request().url());
      await route.fulfill({ status: 503, contentType: "text/plain", body: "Service Unavailable" });
    });
    await page
      .getByTestId("plan-card")
      .first()
      .getByRole("button", { name: "Agregar al carrito" })
      .click();
    await expect.poll(() => posts.length).toBe(1);
    await page.waitForTimeout(1_000);
    expect(posts).toHaveLength(1);
  });
});

test.describe("a deploy while a tab is open", () => {
  test.describe.configure({ mode: "serial", timeout: 120_000 });
  test.skip(
    ({ javaScriptEnabled }) => !javaScriptEnabled,
    "without JavaScript every navigation is a page load: the next page is the new build's already",
  );

  const SESSION_SECRET = "deploy-session-secret-0123456789-abcdefghijklmnop";
  let next: { dir: string; version: string };
  let dataDir: string;
  let server: ServerProcess | null = null;

  test.beforeAll(() => {
    next = buildAnotherVersion("the next deploy");
    dataDir = mkdtempSync(path.join(tmpdir(), "storefront-deploy-data-"));
  });
  test.afterEach(async () => {
    if (server) await stopServer(server);
    server = null;
  });
  test.afterAll(() => {
    rmSync(next.dir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function serve(port: number, cwd?: string) {
    if (server) await stopServer(server);
    const env = { NODE_ENV: "test", PORT: String(port), SESSION_SECRET, DATA_DIR: dataDir };
    server = startServer(env, { cwd });
    await waitForHealth(`http://localhost:${port}`, server);
  }

  /**
   * A tab on this build's /plans, its links' routes already known to it (React Router reloads the page
   * itself only for a route it has not discovered yet); then the deploy: the server stops and the
   * next build starts on the same address and data.
   */
  async function tabOpenAcrossADeploy(page: Page, port: number) {
    await serve(port);
    const discovered = page.waitForResponse((response) => response.url().includes("/__manifest"));
    // The watch for a deploy is loaded once the page is idle.
    const watching = page.waitForResponse((response) =>
      /\/assets\/new-build-[\w-]+\.js$/.test(response.url()),
    );
    await page.goto(`http://localhost:${port}/plans`);
    await Promise.all([discovered, watching]);
    await hydrated(page);
    expect(await page.evaluate(() => window.__reactRouterManifest.version)).not.toBe(next.version);
    await serve(port, next.dir);
    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.isNavigationRequest()) documents.push(new URL(request.url()).pathname);
    });
    await markDocument(page);
    return documents;
  }

  async function expectTheNewBuildLoadedOnce(page: Page, documents: string[]) {
    await expect(page).toHaveURL(/\/help-center$/);
    await expect(page.getByRole("heading", { name: "Categorías" })).toBeVisible();
    // The new document's heading can show before its scripts ran: no manifest yet is "not yet".
    await expect
      .poll(() => page.evaluate(() => window.__reactRouterManifest?.version))
      .toBe(next.version);
    expect(await sameDocument(page)).toBe(false);
    // The page load the navigation asked for: neither React Router's reload of the page the customer was
    // on when a chunk fails, nor the error boundary's chunk-reload guard.
    expect(documents).toEqual(["/help-center"]);
    expect(
      await page.evaluate(() =>
        Object.keys(sessionStorage).filter((key) => key.startsWith("chunk-reload:")),
      ),
    ).toEqual([]);
    // And no loop: the new page stays; the next navigation is a client one again.
    await page.waitForTimeout(1_500);
    expect(documents).toEqual(["/help-center"]);
    await markDocument(page);
    await mainNavigation(page).getByRole("link", { name: "Planes" }).click();
    await expect(page).toHaveURL(/\/plans$/);
    await expect(page.getByTestId("plan-card").first()).toBeVisible();
    expect(await sameDocument(page)).toBe(true);
    expect(documents).toEqual(["/help-center"]);
  }

  test("a tab that asked the server since the deploy loads the new build at its next click, never the earlier build's chunks", async ({
    page,
  }, testInfo) => {
    // The deploy replaced the build's files: the earlier build's chunks are gone.
    await page.clock.install();
    const port = freePort(testInfo.workerIndex);
    const documents = await tabOpenAcrossADeploy(page, port);
    const missing: string[] = [];
    page.on("response", (response) => {
      if (response.status() === 404) missing.push(new URL(response.url()).pathname);
    });
    // Five minutes later the open tab asks which build the site serves.
    const asked = page.waitForResponse((response) => response.url().endsWith(BUILD_VERSION_PATH));
    await page.clock.fastForward(BUILD_CHECK_INTERVAL_MS);
    const answer = await asked;
    expect(await answer.json()).toEqual({ version: next.version });
    await answer.finished();
    await mainNavigation(page).getByRole("link", { name: "Centro de ayuda" }).click();
    await expectTheNewBuildLoadedOnce(page, documents);
    expect(missing).toEqual([]);
  });

  test("a tab that has not asked yet: its next navigation is answered with a page load of the new build (the earlier build's files kept, as a CDN does)", async ({
    page,
  }, testInfo) => {
    // The earlier build's chunks stay served beside the new ones: without the server's answer
    // the old page would go on running its own code for as long as the tab stays open.
    const earlier = path.resolve("build/client/assets");
    const nextAssets = path.join(next.dir, "build", "client", "assets");
    for (const entry of readdirSync(earlier)) {
      cpSync(path.join(earlier, entry), path.join(nextAssets, entry), {
        recursive: true,
        force: false,
      });
    }
    const port = freePort(testInfo.workerIndex);
    const documents = await tabOpenAcrossADeploy(page, port);
    await mainNavigation(page).getByRole("link", { name: "Centro de ayuda" }).click();
    await expectTheNewBuildLoadedOnce(page, documents);
  });
});
