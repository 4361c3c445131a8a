// npm run screenshots: starts the production build (run `npm run build` first) on the embedded
// test doubles, and photographs the home page, the plans and the checkout with a plan in the cart
// at 375 px (a phone) and 1280 px (a laptop), full page, into docs/screenshots/. With
// SCREENSHOTS_BASE_URL it photographs a server already running there instead.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import chromiumFlags from "./chromium-flags.json" with { type: "json" };
import { productionTestEnvironment, serverArgs } from "./server-command.mjs";

const PORT = Number(process.env.SCREENSHOTS_PORT ?? 3220);
const WIDTHS = [375, 1280];
const outputDir = path.resolve("docs/screenshots");

let server = null;
let dataDir = null;
let base = process.env.SCREENSHOTS_BASE_URL;
if (!base) {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "storefront-screenshots-"));
  base = `http://localhost:${PORT}`;
  server = spawn(process.execPath, serverArgs(), {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      ...productionTestEnvironment(base),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      SESSION_SECRET: "screenshots-secret-0123456789-abcdefghijklmnopqrstuvwxyz",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      if (attempt > 300) throw new Error("the server did not start");
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

mkdirSync(outputDir, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: chromiumFlags,
});
try {
  for (const width of WIDTHS) {
    const context = await browser.newContext({
      viewport: { width, height: width < 600 ? 740 : 800 },
      locale: "es-MX",
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    const shot = async (name) => {
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: path.join(outputDir, `${name}-${width}.png`), fullPage: true });
      console.log(`docs/screenshots/${name}-${width}.png`);
    };
    await page.goto(`${base}/`);
    await shot("home");
    await page.goto(`${base}/plans`);
    await shot("plans");
    // A plan in the cart: the same form a customer submits.
    await page.goto(`${base}/`);
    const stored = page.waitForResponse(
      (response) =>
        response.request().method() === "POST" &&
        /^\/cart(\.data)?$/.test(new URL(response.url()).pathname),
    );
    await page.getByRole("button", { name: /^Agregar Conecta .* al carrito$/ }).click();
    await stored;
    await page.goto(`${base}/checkout`);
    await shot("checkout");
    await context.close();
  }
} finally {
  await browser.close();
  server?.kill("SIGTERM");
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
