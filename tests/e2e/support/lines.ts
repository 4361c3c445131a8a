import { expect, type APIRequestContext, type Page } from "@playwright/test";

/** A Mexican number nobody else in this run uses: a line of the BSS simulator's sandbox. */
export function uniqueLineNumber(): string {
  return `55${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
}

/** "55 1234 5678", as the pages write a line. */
export function spaced(number: string): string {
  return `${number.slice(0, 2)} ${number.slice(2, 6)} ${number.slice(6)}`;
}

/** "55 •••• 5678", as the e-mails write a line. */
export function masked(number: string): string {
  return `${number.slice(0, 2)} •••• ${number.slice(6)}`;
}

const HTML_ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#x27;": "'",
};

/** The e-mails the development outbox captured for `to` (for every address without it), newest first. */
export async function mailsTo(request: APIRequestContext, to?: string) {
  const response = await request.get(
    to === undefined ? "/dev/outbox" : `/dev/outbox?to=${encodeURIComponent(to)}`,
  );
  expect(response.status()).toBe(200);
  const rows = (await response.text()).split('data-testid="outbox-mail-message"').slice(1);
  const read = (pattern: RegExp, row: string) =>
    (pattern.exec(row)?.[1] ?? "").replace(/&(?:amp|lt|gt|quot|#x27);/g, (e) => HTML_ENTITIES[e]!);
  return rows.map((row) => ({
    subject: read(/data-testid="outbox-mail-subject">([^<]*)</, row),
    text: read(/data-testid="outbox-mail-text"[^>]*>([^<]*)</, row),
  }));
}

/** The SMS the development outbox captured for `number`, newest first. */
export async function smsTo(request: APIRequestContext, number: string) {
  const response = await request.get(`/dev/outbox?to=${number}`);
  expect(response.status()).toBe(200);
  const rows = (await response.text()).split('data-testid="outbox-sms-message"').slice(1);
  return rows.map((row) => ({
    template: /data-template="([^"]+)"/.exec(row)?.[1] ?? "",
    text: /data-testid="outbox-sms-text"[^>]*>([^<]*)</.exec(row)?.[1] ?? "",
  }));
}

/** The code of the newest SMS to `number`, once there are more than `after` of them. */
export async function smsCode(
  request: APIRequestContext,
  number: string,
  after = 0,
): Promise<string> {
  let code = "";
  await expect
    .poll(async () => {
      const messages = await smsTo(request, number);
      code = messages.length > after ? (/\b(\d{6})\b/.exec(messages[0]!.text)?.[1] ?? "") : "";
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code;
}

export async function askForCode(page: Page, number: string) {
  await page.getByLabel("Número de la línea (10 dígitos)").fill(number);
  await page.getByRole("button", { name: "Enviar código por SMS" }).click();
}

export async function typeCode(page: Page, code: string, button: string) {
  await page.getByLabel("Código de 6 dígitos").fill(code);
  await page.getByRole("button", { name: button }).click();
}
