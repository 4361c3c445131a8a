import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { curpCheckDigit } from "../../../app/registration/curp";

export const TEST_CARDS = {
  approved: "4242 4242 4242 4242",
  declined: "4000 0000 0000 0002",
  insufficientFunds: "4000 0000 0000 9995",
};

export function uniqueEmail(prefix = "cliente") {
  return `${prefix}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export function planCard(page: Page, name: string) {
  return page.getByRole("article", { name, exact: true });
}

export function cartBadge(page: Page) {
  return page.getByTestId("cart-count");
}

/**
 * Adds a plan from the card on the current page and waits until the server has stored it (the
 * optimistic badge alone would let a test navigate away while the request is in flight).
 */
export async function addPlan(page: Page, name: string, expected: number) {
  const stored = page.waitForResponse(
    // Without JavaScript the form posts to /cart; with it, React Router's fetcher posts to /cart.data.
    (response) =>
      response.request().method() === "POST" &&
      /^\/cart(\.data)?$/.test(new URL(response.url()).pathname),
  );
  await planCard(page, name).getByRole("button", { name: "Agregar al carrito" }).click();
  await stored;
  await expect(cartBadge(page)).toHaveText(String(expected));
}

export const validCheckout = {
  full_name: "Ana López Hernández",
  phone_number: "55 1234 5678",
  street: "Av. Insurgentes Sur",
  exterior_number: "1234",
  interior_number: "5B",
  neighborhood: "Del Valle",
  postal_code: "03100",
  municipality: "Benito Juárez",
  state: "Ciudad de México",
};

/**
 * Who will hold an order's lines (issue 27): Ana Gómez Martínez, with a CURP whose initials
 * match her name (RENAPO's rule, which the sandbox validation checks) and a birth date and
 * homoclave drawn at random, so that no CURP gathers the 10 lines the rule allows across runs.
 */
export function uniqueHolder(): { full_name: string; curp: string } {
  const two = (value: number) => String(value).padStart(2, "0");
  const random = (from: number, to: number) => from + Math.floor(Math.random() * (to - from + 1));
  const first17 = `GOMA${two(random(50, 99))}${two(random(1, 12))}${two(random(1, 28))}MDFMRN${random(0, 9)}`;
  return { full_name: "Ana Gómez Martínez", curp: first17 + curpCheckDigit(first17) };
}

/** The holder's fields of the checkout form, as a browser sends them. */
export function holderFormFields(holder = uniqueHolder()): Record<string, string> {
  return {
    "holder.holder_kind": "fisica",
    "holder.full_name": holder.full_name,
    "holder.curp": holder.curp,
    "holder.identification_type": "ine",
  };
}

/** Fills the checkout's holder of the lines (a persona física, the kind checked at first). */
export async function fillHolder(page: Page, holder = uniqueHolder()) {
  await page
    .getByLabel("Nombre del titular (como aparece en su identificación)")
    .fill(holder.full_name);
  await page.getByLabel("CURP del titular").fill(holder.curp);
  await page.getByRole("radio", { name: "Credencial para votar (INE)" }).check();
}

export async function fillCheckout(page: Page, email: string) {
  await page.getByLabel("Nombre completo").fill(validCheckout.full_name);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Teléfono celular").fill(validCheckout.phone_number);
  await fillHolder(page);
  await page.getByLabel("Calle").fill(validCheckout.street);
  await page.getByLabel("Número exterior").fill(validCheckout.exterior_number);
  await page.getByLabel("Número interior (opcional)").fill(validCheckout.interior_number);
  await page.getByLabel("Colonia").fill(validCheckout.neighborhood);
  await page.getByLabel("Código postal").fill(validCheckout.postal_code);
  await page.getByLabel("Alcaldía o municipio").fill(validCheckout.municipality);
  await page.getByLabel("Estado").selectOption({ label: validCheckout.state });
  await page.getByRole("checkbox", { name: /Acepto el contrato de adhesión/ }).check();
}

export function submitCheckout(page: Page) {
  return page.getByRole("button", { name: /Continuar al pago de/ }).click();
}

export const ORDER_CONFIRMATION_URL = /\/confirmation\?pedido=/;
export const TOPUP_RECEIPT_URL = /\/recarga\/[\w-]{22}$/;

/**
 * Pays on the sandbox's card page and waits for the page the payment brings the customer back to
 * (the order confirmation, or a top-up's receipt); `landsOn: null` leaves that to the test.
 */
export async function payWithCard(
  page: Page,
  cardNumber: string,
  {
    landsOn = ORDER_CONFIRMATION_URL,
    expiry = "12/30",
    cvc = "123",
    holder = "Ana Lopez",
  }: { landsOn?: RegExp | null; expiry?: string; cvc?: string; holder?: string } = {},
) {
  await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);
  await page.getByLabel("Número de tarjeta").fill(cardNumber);
  await page.getByLabel("Vencimiento (MM/AA)").fill(expiry);
  await page.getByLabel("Código de seguridad (CVC)").fill(cvc);
  await page.getByLabel("Nombre como aparece en la tarjeta").fill(holder);
  await page.getByRole("button", { name: /^Pagar / }).click();
  if (landsOn) await expect(page).toHaveURL(landsOn);
}

/** A cart with one plan, straight through the cart contract. */
export async function cartWith(page: Page, planName: string) {
  await page.goto("/plans");
  await addPlan(page, planName, 1);
}

export const PAYMENT_METHOD = {
  card: "Tarjeta de crédito o débito",
  cash: "Efectivo en tienda",
  spei: "Transferencia SPEI",
} as const;

export function choosePaymentMethod(page: Page, method: keyof typeof PAYMENT_METHOD) {
  return page.getByRole("radio", { name: new RegExp(`^${PAYMENT_METHOD[method]}`) }).check();
}

/**
 * In the test environment nobody pays at a store or a bank: the sandbox's simulator (linked from
 * the voucher) reports a payment or the voucher's expiry, and brings the customer back.
 */
export async function simulateVoucher(page: Page, button: RegExp) {
  await page.getByTestId("payment-simulator").click();
  await expect(page).toHaveURL(/\/sandbox\/pago\/chk_/);
  await page.getByRole("button", { name: button }).click();
}

/**
 * The one-time order link the store e-mailed to `email` for `folio` (captured at /dev/outbox
 * without SMTP), waiting for it: its path, `/pedido/abrir?clave=…`. `subject` picks the e-mail
 * (the link asked for at /pedido by default). `after`: how many such links were seen before.
 */
export async function emailedOrderLink(
  request: APIRequestContext,
  email: string,
  folio: string,
  { subject = `Tu enlace para ver el pedido ${folio}`, after = 0 } = {},
): Promise<string> {
  let links: string[] = [];
  await expect
    .poll(
      async () => {
        links = await emailedOrderLinks(request, email, subject);
        return links.length;
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThan(after);
  return links[0]!;
}

/** Every order link e-mailed to `email` under `subject`, newest first. */
export async function emailedOrderLinks(
  request: APIRequestContext,
  email: string,
  subject: string,
): Promise<string[]> {
  const html = await (await request.get(`/dev/outbox?to=${encodeURIComponent(email)}`)).text();
  return html
    .split('data-testid="outbox-mail-subject"')
    .slice(1)
    .filter((row) => row.startsWith(`>${subject}<`))
    .flatMap((row) => /\/pedido\/abrir\?clave=[\w-]{43}/.exec(row)?.[0] ?? []);
}

/**
 * Buys one `planName` (default Conecta 200) as eSIM for `email`, paid with the approved card;
 * answers the order's folio, with its page open.
 */
/** `planName` null: the cart as it is (several plans already in it). */
export async function buyEsim(page: Page, email: string, planName: string | null = "Conecta 200") {
  if (planName !== null) await cartWith(page, planName);
  await page.goto("/checkout");
  await page
    .getByRole("group", { name: "Tipo de SIM" })
    .getByRole("radio", { name: /^eSIM/ })
    .check();
  await page.getByLabel("Nombre completo").fill(validCheckout.full_name);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Teléfono celular").fill(validCheckout.phone_number);
  await fillHolder(page);
  await page.getByRole("checkbox", { name: /Acepto el contrato de adhesión/ }).check();
  await submitCheckout(page);
  await payWithCard(page, TEST_CARDS.approved);
  await expect(page.getByTestId("order-status")).toHaveText("Pagado");
  return { folio: (await page.getByTestId("order-folio").textContent())! };
}
