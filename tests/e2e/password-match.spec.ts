import { expect, test } from "@playwright/test";

test("with JavaScript, a mismatch shows while typing once both passwords have 6 characters", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "without JavaScript the server says it on submit (auth.spec.ts)");
  await page.goto("/auth/sign-up");
  await page.waitForFunction(() => "__reactRouterDataRouter" in window);
  const mismatch = page.getByText("Las contraseñas deben coincidir.");
  const password = page.getByLabel("Contraseña", { exact: true });
  const confirm = page.getByLabel("Confirma la contraseña");
  await password.pressSequentially("Conecta-2025x");
  // Five characters: too early to judge, nothing shows.
  await confirm.pressSequentially("Conec");
  await expect(mismatch).toHaveCount(0);
  // The sixth makes both long enough: the mismatch shows without leaving the field.
  await confirm.pressSequentially("x");
  await expect(mismatch).toBeVisible();
  await expect(confirm).toBeFocused();
  await confirm.fill("");
  await confirm.pressSequentially("Conecta-2025x");
  await expect(mismatch).toHaveCount(0);
});
