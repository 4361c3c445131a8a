import { expect, test } from "@playwright/test";
import { authenticator } from "otplib";
import { accountReady, signIn, uniqueEmail } from "./support/auth";
import { serverWithMovableClock } from "./support/own-server";

// A window of the server's clock, the same with JavaScript or without: one project runs it (the
// setup form's journeys run in both, auth.spec.ts).
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "a server-side window: runs once");

test("an authenticator app added from the account can be confirmed after more than 3 minutes", async ({
  browser,
}, testInfo) => {
  // The customer installs the app first: the setup waits 10 minutes, not the sign-in's 180 s. The
  // server's clock is moved past the 180 s, on a server of the test's own; the app's code is
  // the one for the server's moved time, as a phone beside it would show.
  const own = await serverWithMovableClock(browser, testInfo);
  try {
    const { page, request } = own;
    const email = uniqueEmail("totp-lento");
    await accountReady(page, request, email);
    await signIn(page, email);
    await page.getByRole("button", { name: "Configurar app de autenticación" }).click();
    await expect(page).toHaveURL(/\/auth\/setup-totp$/);
    const secret = (await page.getByTestId("totp-secret").textContent())!.trim();

    await own.server.moveClock(190);
    await page.reload();
    await expect(page.getByTestId("totp-secret")).toHaveText(secret);
    const code = authenticator.clone({ epoch: own.server.now() }).generate(secret);
    await page.getByLabel("Código de tu app de autenticación").fill(code);
    await page.getByRole("button", { name: "Verificar y activar" }).click();
    await expect(page).toHaveURL(/\/my-account$/);
    await expect(page.getByTestId("account-mfa-status")).toContainText("App de autenticación");
  } finally {
    await own.close();
  }
});
