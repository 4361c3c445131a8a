import { expect, test } from "@playwright/test";
import { authenticator } from "otplib";
import { createAccount, signIn, uniqueEmail } from "./support/auth";

// A wait of the server's clock, the same with JavaScript or without: one project runs it (the setup
// form's journeys run in both, auth.spec.ts). The first project's, so that its three idle minutes
// overlap the rest of the suite instead of ending it.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "a server-side window: runs once");

test("an authenticator app added from the account can be confirmed after more than 3 minutes", async ({
  page,
  request,
}) => {
  // The customer installs the app first: the setup waits 10 minutes, not the sign-in's 180 s.
  test.setTimeout(300_000);
  const email = uniqueEmail("totp-lento");
  await createAccount(page, request, email);
  await signIn(page, email);
  await page.getByRole("button", { name: "Configurar app de autenticación" }).click();
  await expect(page).toHaveURL(/\/auth\/setup-totp$/);
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();

  await page.waitForTimeout(190_000);
  await page.reload();
  await expect(page.getByTestId("totp-secret")).toHaveText(secret);
  await page.getByLabel("Código de tu app de autenticación").fill(authenticator.generate(secret));
  await page.getByRole("button", { name: "Verificar y activar" }).click();
  await expect(page).toHaveURL(/\/my-account$/);
  await expect(page.getByTestId("account-mfa-status")).toContainText("App de autenticación");
});
