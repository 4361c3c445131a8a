import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/axe";
import { payWithCard, TEST_CARDS, TOPUP_RECEIPT_URL } from "./support/commerce";
import { createCustomer, signInTo, submitSignIn } from "./support/customers";
import { mailsTo } from "./support/lines";

/** Receipts live at /recarga/<128-bit id> (the account's folio links lead there). */

/** A Mexican line nobody else in this run uses. */
function uniqueLine() {
  return `55${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
}

function masked(line: string) {
  return `${line.slice(0, 2)} •••• ${line.slice(6)}`;
}

async function fillNewLine(page: Page, line: string, confirmation = line) {
  await page.getByLabel("Número de celular (10 dígitos)").fill(line);
  await page.getByLabel("Vuelve a escribir el número").fill(confirmation);
}

function chooseAmount(page: Page, label: string) {
  return page.getByRole("radio", { name: new RegExp(`^\\${label}(?![\\d.,])`) }).check();
}

function submitTopup(page: Page) {
  return page.getByRole("button", { name: "Continuar al pago" }).click();
}

test("a customer signs in on the way, tops up $100, sees the receipt and the history", async ({
  page,
  request,
}) => {
  const customer = await createCustomer(request);
  const line = uniqueLine();

  await page.goto("/my-account/recarga");
  await expect(page).toHaveURL(/\/auth\/sign-in\?redirectTo=%2Fmy-account%2Frecarga/);
  await submitSignIn(page, customer);
  await expect(page).toHaveURL("/my-account/recarga");
  await expect(page).toHaveTitle("Conecta Móvil | Recarga");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Recarga tu línea");
  // Each amount says what it buys.
  await expect(page.getByTestId("topup-amount")).toHaveCount(8);
  await expect(page.getByTestId("topup-amount").filter({ hasText: "$100" })).toContainText(
    "Vigencia de 15 días",
  );
  await expectNoAxeViolations(page);

  await fillNewLine(page, `${line.slice(0, 2)} ${line.slice(2, 6)} ${line.slice(6)}`, line);
  await chooseAmount(page, "$100");
  await submitTopup(page);
  await expect(page.getByTestId("sandbox-amount")).toHaveText("$100.00 MXN");
  await payWithCard(page, TEST_CARDS.approved, { landsOn: TOPUP_RECEIPT_URL });

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Comprobante de recarga");
  await expect(page.getByTestId("topup-status")).toHaveText("Pagada");
  await expect(page.getByTestId("topup-line")).toHaveText(masked(line));
  await expect(page.getByTestId("topup-amount")).toHaveText("$100.00 MXN");
  await expect(page.getByTestId("topup-date")).toHaveText(/^\d{1,2} de [a-z]+ de \d{4}/);
  await expect(page.getByText("Pagado con Visa terminada en 4242")).toBeVisible();
  await expect(page.locator("body")).not.toContainText(line);
  const folio = (await page.getByTestId("topup-folio").textContent())!;
  expect(folio).toMatch(/^REC-\d{4}-\d{6}$/);
  await expectNoAxeViolations(page);

  // The receipt e-mail tells the vigencia the receipt page tells once applied: one computation,
  // the line's from the BSS (issue 48).
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByTestId("topup-application-state").textContent();
      },
      { timeout: 20_000 },
    )
    .toBe("Aplicada a tu línea");
  const pageVigencia = /hasta el (.+)\.$/.exec(
    (await page.getByTestId("topup-valid-until").last().textContent())!,
  )![1];
  const receiptMail = async () =>
    (await mailsTo(request, customer.email)).find(
      (mail) => mail.subject === `Comprobante de tu recarga ${folio}`,
    );
  await expect
    .poll(async () => (await receiptMail())?.text ?? "", { timeout: 20_000 })
    .toContain(`Tu línea queda vigente hasta el ${pageVigencia}.`);

  await page.getByRole("link", { name: "Ir a Mi cuenta" }).click();
  await expect(page).toHaveURL("/my-account");
  const rows = page.getByTestId("account-topup");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(folio);
  await expect(rows.first()).toContainText("Pagada");
  await expect(page.getByTestId("account-lines")).toContainText(masked(line));
  await expect(page.getByRole("link", { name: "Recargar saldo" })).toBeVisible();
  await expectNoAxeViolations(page);

  // The receipt is one link away, and the line is now a one-tap choice.
  await page.getByRole("link", { name: `Ver comprobante ${folio}` }).click();
  await expect(page.getByTestId("topup-folio")).toHaveText(folio);
  await page.getByRole("link", { name: "Hacer otra recarga" }).click();
  await expect(page.getByRole("radio", { name: new RegExp(masked(line)) })).toBeChecked();
});

test("a declined card says why in Spanish; the retry pays the same top-up", async ({
  page,
  request,
}) => {
  const customer = await createCustomer(request);
  await signInTo(page, customer, "/my-account/recarga");
  await fillNewLine(page, uniqueLine());
  const promised = await page
    .getByTestId("topup-amount")
    .filter({ hasText: /^\$50(?!\d)/ })
    .getByTestId("topup-benefit")
    .allTextContents();
  expect(promised).toContain("Redes sociales ilimitadas");
  await chooseAmount(page, "$50");
  await submitTopup(page);
  await payWithCard(page, TEST_CARDS.declined, { landsOn: TOPUP_RECEIPT_URL });
  // The receipt lists what the amount's card promised.
  await expect(page.getByTestId("topup-benefit")).toHaveText(promised);

  await expect(page.getByTestId("topup-status")).toHaveText("Pago rechazado");
  await expect(page.getByTestId("topup-declined")).toContainText(
    "No pudimos cobrar la recarga: el banco rechazó la tarjeta.",
  );
  const folio = (await page.getByTestId("topup-folio").textContent())!;
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Intentar el pago de nuevo" }).click();
  await expect(page.getByTestId("sandbox-amount")).toHaveText("$50.00 MXN");
  await payWithCard(page, TEST_CARDS.approved, { landsOn: TOPUP_RECEIPT_URL });
  await expect(page.getByTestId("topup-folio")).toHaveText(folio);
  await expect(page.getByTestId("topup-status")).toHaveText("Pagada");

  await page.goto("/my-account");
  await expect(page.getByTestId("account-topup")).toHaveCount(1);
  await expect(page.getByTestId("account-topup")).toContainText(folio);
});

test("the same form sent twice records one top-up and opens one payment", async ({
  page,
  request,
}) => {
  const customer = await createCustomer(request);
  await signInTo(page, customer, "/my-account/recarga");
  const line = uniqueLine();
  await fillNewLine(page, line);
  await chooseAmount(page, "$20");
  // What the browser sends (a double click without JavaScript, or a retried request, sends
  // exactly this again).
  const sent = {
    phone_number: line,
    phone_number_confirm: line,
    amount: "20",
    idempotency_key: (await page.locator("input[name=idempotency_key]").getAttribute("value"))!,
  };
  await submitTopup(page);
  await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);
  const paymentPage = new URL(page.url()).pathname;

  const again = await page.request.post("/my-account/recarga", {
    form: sent,
    maxRedirects: 0,
  });
  expect(again.status()).toBe(303);
  expect(new URL(again.headers().location!, page.url()).pathname).toBe(paymentPage);

  await page.goto("/my-account");
  await expect(page.getByTestId("account-topup")).toHaveCount(1);
  await expect(page.getByTestId("account-topup")).toContainText("Pendiente de pago");
});

test("a mismatched confirmation is refused at the field, with the values kept", async ({
  page,
  request,
}) => {
  const customer = await createCustomer(request);
  await signInTo(page, customer, "/my-account/recarga");
  await fillNewLine(page, "5512345678", "5512345679");
  await chooseAmount(page, "$100");
  const scripted = test.info().project.use.javaScriptEnabled !== false;
  // With JavaScript the browser checks first and sends nothing; without it the server answers 400.
  const answer = scripted
    ? null
    : page.waitForResponse((response) => response.request().method() === "POST");
  await submitTopup(page);
  if (answer) expect((await answer).status()).toBe(400);

  const confirm = page.getByLabel("Vuelve a escribir el número");
  await expect(confirm).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Los números no coinciden. Revisa ambos.")).toBeVisible();
  await expect(page.getByLabel("Número de celular (10 dígitos)")).toHaveValue("5512345678");
  await expect(confirm).toHaveValue("5512345679");
  await expect(page.getByRole("radio", { name: /^\$100(?![\d.,])/ })).toBeChecked();
  await expectNoAxeViolations(page);

  await page.goto("/my-account");
  await expect(page.getByTestId("account-topup")).toHaveCount(0);
});

test("an old receipt address by folio leads its owner to the receipt, and is a 404 for anyone else", async ({
  page,
  browser,
  request,
}) => {
  const owner = await createCustomer(request, "duena");
  await signInTo(page, owner, "/my-account/recarga");
  await fillNewLine(page, uniqueLine());
  await chooseAmount(page, "$30");
  await submitTopup(page);
  await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);
  await page.goto("/my-account");
  const folio = (await page.getByTestId("account-topup").getByRole("link").textContent())!;
  const byFolio = `/my-account/recarga/${folio}`;
  expect((await page.goto(byFolio))?.status()).toBe(200);
  await expect(page).toHaveURL(TOPUP_RECEIPT_URL);
  await expect(page.getByTestId("topup-folio")).toHaveText(folio);

  const stranger = await createCustomer(request, "extrana");
  const other = await browser.newContext();
  try {
    const strangerPage = await other.newPage();
    await signInTo(strangerPage, stranger, "/my-account");
    const response = await strangerPage.goto(byFolio);
    expect(response?.status()).toBe(404);
    await expect(strangerPage.getByRole("heading", { level: 1 })).toHaveText(
      "Página no encontrada",
    );
    await expect(strangerPage.getByTestId("topup-receipt")).toHaveCount(0);
  } finally {
    await other.close();
  }
});
