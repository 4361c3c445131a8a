import { expect, test, type Page } from "@playwright/test";
import { BASE_URL } from "../../playwright.config";
import { accountReady, signIn, uniqueEmail } from "./support/auth";

// A wrong address or a stale button gets a Spanish page or message and a 4xx (decision 0137):
// never React Router's JSON ("Unexpected Server Error", `null`) nor the identity service's 503.

test("a file's or an endpoint's address opened without its parameters is the site's Spanish 404 page", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  for (const path of [
    "/facturacion/descargar",
    "/facturacion/descargar?formato=pdf",
    "/facturacion/descargar?formato=xml&pedido=AAAAAAAAAAAAAAAAAAAAAA",
    "/auth/oauth/google",
    "/payments/webhook/sandbox",
  ]) {
    const answer = await page.goto(path);
    expect(answer!.status(), path).toBe(404);
    expect(answer!.headers()["content-type"], path).toMatch(/^text\/html/);
    await expect(page.getByRole("heading", { level: 1 }), path).toHaveText("Página no encontrada");
    await expect(page.getByText(`Página no encontrada: ${path.split("?")[0]}`), path).toBeVisible();
    await expect(page.getByRole("link", { name: "Volver al inicio" }), path).toBeVisible();
    expect(await answer!.text(), path).not.toMatch(/Unexpected Server Error|^null$/);
  }
  // Without a browser's Accept header too.
  const plain = await fetch(`${BASE_URL}/facturacion/descargar`);
  expect(plain.status).toBe(404);
  expect(await plain.text()).toContain("Página no encontrada");
  expect(errors).toEqual([]);
});

async function passkeyDeleteOf(page: Page, credentialId: string) {
  return page.request.post("/my-account/seguridad", {
    form: { intent: "delete-passkey", credential_id: credentialId },
    headers: { Origin: BASE_URL },
    maxRedirects: 0,
  });
}

test("deleting a passkey the account does not have is a Spanish 404 on the security page", async ({
  page,
  request,
}) => {
  const email = uniqueEmail("llave-ajena");
  await accountReady(page, request, email);
  await signIn(page, email);
  await expect(page).toHaveURL(/\/my-account$/);
  // The form's POST as a browser without JavaScript sends it: the page again, with the message.
  const answer = await passkeyDeleteOf(page, "AAAAAAAAAAAAAAAAAAAAAA");
  expect(answer.status()).toBe(404);
  const html = await answer.text();
  expect(html).toContain(
    "Esa llave de acceso ya no está en tu cuenta: quizá la eliminaste desde otra ventana.",
  );
  expect(html).toContain("Llaves de acceso");
  // Nothing else changed: the page still lists none, and no success is claimed.
  await page.goto("/my-account/seguridad");
  await expect(page.getByTestId("passkeys-empty")).toBeVisible();
  await expect(page.getByText("Eliminaste la llave de acceso")).toHaveCount(0);
});

test("a form sent where none is taken is a Spanish page that blames the request, not the server", async ({
  page,
}) => {
  for (const [path, status, heading] of [
    ["/plans", 405, "Solicitud no válida"],
    ["/", 405, "Solicitud no válida"],
    ["/facturacion/descargar", 404, "Página no encontrada"],
    ["/auth/oauth/google", 404, "Página no encontrada"],
  ] as const) {
    const answer = await page.request.post(path, {
      form: { cualquier: "cosa" },
      headers: { Origin: BASE_URL },
      maxRedirects: 0,
    });
    expect(answer.status(), path).toBe(status);
    const html = await answer.text();
    expect(html, path).toContain(`>${heading}</h1>`);
    expect(html, path).not.toMatch(/Unexpected Server Error|Error interno del servidor/);
  }
});
