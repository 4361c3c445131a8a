import { createServer, type Server } from "node:http";
import { expect, test, type Page } from "@playwright/test";
import { testIccid } from "../support/iccids";
import { freePort, startServer, stopServer, waitForHealth } from "../support/server-process";
import { buyEsim, uniqueEmail } from "./support/commerce";

// A real SM-DP+ tells the store when a phone installed a profile (ES2+ HandleDownloadProgressInfo,
// decision 0093): nobody presses "Simular instalación". A server of this test's own runs on
// ESIM_PROVIDER=es2plus against a stand-in SM-DP+ that issues the codes (DownloadOrder,
// ConfirmOrder) and then notifies the installation the way SGP.22 describes.

const SESSION_SECRET = "es2plus-installation-secret-0123456789-abcdefghij";
const NOTIFICATION_SECRET = "es2plus-notifications-0123456789-abcdefghijklmn";
const ADMIN_PROTOCOL = "gsma/rsp/v2.2.0";

/** The stand-in SM-DP+: each DownloadOrder reserves the next ICCID of this test's series. */
function smdpStandIn(firstSerial: number) {
  const issued: string[] = [];
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const fn = (request.url ?? "").split("/").pop();
      const header = { functionExecutionStatus: { status: "Executed-Success" } };
      let body: object = { header };
      if (fn === "downloadOrder") {
        issued.push(testIccid(firstSerial + issued.length));
        body = { header, iccid: issued.at(-1) };
      } else if (fn === "confirmOrder") {
        body = { header, matchingId: `MATCH-${issued.length}`, smdpAddress: "rsp.smdp.example.mx" };
      }
      response.writeHead(200, {
        "Content-Type": "application/json;charset=UTF-8",
        "X-Admin-Protocol": ADMIN_PROTOCOL,
      });
      response.end(JSON.stringify(body));
    });
  });
  return { server, issued };
}

/** What the SM-DP+ posts once the phone installed the Bound Profile Package. */
function installationNotice(iccid: string) {
  return {
    header: {
      functionRequesterIdentifier: "rsp.smdp.example.mx",
      functionCallIdentifier: `install-${iccid}`,
    },
    eid: "89049032000001000000012345678901",
    iccid,
    profileType: "CONECTA-ESIM-01",
    timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
    notificationPointId: 4,
    notificationPointStatus: { status: "Executed-Success" },
  };
}

async function notify(page: Page, base: string, body: object, secret = NOTIFICATION_SECRET) {
  return page.request.post(`${base}/gsma/rsp2/es2plus/handleDownloadProgressInfo`, {
    data: body,
    headers: { Authorization: `Bearer ${secret}`, "X-Admin-Protocol": ADMIN_PROTOCOL },
  });
}

test("an eSIM issued by the SM-DP+ becomes a line when the SM-DP+ says a phone installed it", async ({
  browser,
  javaScriptEnabled,
}) => {
  test.setTimeout(120_000);
  const smdpPort = freePort(test.info().workerIndex);
  const port = freePort(test.info().workerIndex);
  const base = `http://localhost:${port}`;
  const smdp = smdpStandIn(javaScriptEnabled ? 4301 : 4351);
  await new Promise<void>((resolve) => smdp.server.listen(smdpPort, "127.0.0.1", resolve));
  const server = startServer({
    NODE_ENV: "test",
    PORT: String(port),
    SESSION_SECRET,
    ESIM_PROVIDER: "es2plus",
    ES2PLUS_BASE_URL: `http://127.0.0.1:${smdpPort}`,
    ES2PLUS_REQUESTER_ID: "conecta-movil",
    ES2PLUS_NOTIFICATION_SECRET: NOTIFICATION_SECRET,
  });
  const context = await browser.newContext({ baseURL: base, javaScriptEnabled, locale: "es-MX" });
  try {
    await waitForHealth(base, server);
    const page = await context.newPage();
    await buyEsim(page, uniqueEmail("linea-es2plus"));
    const esim = page.getByTestId("esim-activation");
    await expect(esim.getByTestId("esim-qr")).toBeVisible();
    await expect(esim.getByTestId("esim-test-code")).toHaveCount(0);
    // A real SM-DP+'s code: nothing to simulate.
    await expect(page.getByRole("button", { name: /Simular instalación/ })).toHaveCount(0);
    // The profile the store kept (two first views at once may each have reserved one).
    const iccid = (await esim.getByTestId("esim-iccid").textContent())!;
    expect(smdp.issued).toContain(iccid);

    // Someone without the agreed secret cannot claim the installation.
    const forged = await notify(page, base, installationNotice(iccid), "not-the-secret");
    expect(forged.status()).toBe(401);
    await page.reload();
    await expect(esim.getByTestId("line-activation")).toHaveCount(0);

    const installed = await notify(page, base, installationNotice(iccid));
    expect(installed.status()).toBe(204);
    // The SM-DP+ may deliver it again: still success, nothing more happens.
    expect((await notify(page, base, installationNotice(iccid))).status()).toBe(204);

    await page.reload();
    await expect(esim.getByTestId("esim-installed")).toContainText("Instalada el");
    await expect(async () => {
      if (!(await esim.getByTestId("line-number").isVisible())) await page.reload();
      await expect(esim.getByTestId("line-number")).toHaveText(/^Tu número: 55 99\d{2} \d{4}$/, {
        timeout: 1_000,
      });
    }).toPass({ timeout: 30_000 });
    expect(server.output.join("")).not.toContain(iccid);
  } finally {
    await context.close();
    await stopServer(server);
    await new Promise((resolve) => smdp.server.close(resolve));
  }
});
