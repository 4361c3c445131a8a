import { expect, test } from "@playwright/test";

// POST /cart is a contract other tests rely on; it answers the same with or without a browser.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP contract checks run once");

const badge = (html: string) => /data-testid="cart-count"[^>]*>(\d+)</.exec(html)?.[1];

test("POST /cart answers 303 back to a same-site redirectTo, or to /cart", async ({ request }) => {
  const add = await request.post("/cart", {
    form: { intent: "add", id: "conecta-150", redirectTo: "/plans?validity_days=30" },
    maxRedirects: 0,
  });
  expect(add.status()).toBe(303);
  expect(add.headers().location).toBe("/plans?validity_days=30");

  for (const redirectTo of ["https://evil.example/", "//evil.example", "/\\evil.example"]) {
    const response = await request.post("/cart", {
      form: { intent: "increment", id: "conecta-150", redirectTo },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(303);
    expect(response.headers().location, redirectTo).toBe("/cart");
  }

  const page = await (await request.get("/cart")).text();
  expect(badge(page)).toBe("4");
  expect(page).toContain("$600.00\u00a0MXN");
});

test("each intent follows the spec's rules", async ({ request }) => {
  const post = (form: Record<string, string>) => request.post("/cart", { form, maxRedirects: 0 });
  await post({ intent: "add", id: "conecta-50" });
  await post({ intent: "add", id: "conecta-50" });
  await post({ intent: "add", id: "conecta-100" });
  expect(badge(await (await request.get("/cart")).text())).toBe("3");
  await post({ intent: "decrement", id: "conecta-100" });
  expect(badge(await (await request.get("/cart")).text())).toBe("2");
  await post({ intent: "remove", id: "conecta-50" });
  expect(badge(await (await request.get("/cart")).text())).toBe("0");
  await post({ intent: "add", id: "conecta-50" });
  const clear = await post({ intent: "clear" });
  expect(clear.status()).toBe(303);
  expect(clear.headers().location).toBe("/cart");
  expect(badge(await (await request.get("/cart")).text())).toBe("0");
});

test("an unknown plan or intent is a 400 with a Spanish message", async ({ request }) => {
  const unknownPlan = await request.post("/cart", { form: { intent: "add", id: "plan-fantasma" } });
  expect(unknownPlan.status()).toBe(400);
  expect(await unknownPlan.text()).toContain("Ese plan no existe o ya no está a la venta.");

  const unknownIntent = await request.post("/cart", {
    form: { intent: "duplicar", id: "conecta-50" },
  });
  expect(unknownIntent.status()).toBe(400);
  expect(await unknownIntent.text()).toContain("No reconocemos esa acción del carrito");

  const missingId = await request.post("/cart", { form: { intent: "increment" } });
  expect(missingId.status()).toBe(400);
});

test("the cart cookie keeps only ids and quantities for 30 days; a tampered one is an empty cart", async ({
  page,
  context,
  baseURL,
}) => {
  await page.goto("/plans");
  await page.getByRole("article", { name: "Conecta 200", exact: true }).getByRole("button").click();
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  // With JavaScript the badge is optimistic: wait for the server's cookie itself.
  const cartCookie = async () => (await context.cookies()).find((item) => item.name === "cart");
  await expect.poll(cartCookie).toBeDefined();
  const cookie = await cartCookie();
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Lax");
  const days = (cookie!.expires - Date.now() / 1000) / 86_400;
  expect(days).toBeGreaterThan(29.9);
  expect(days).toBeLessThanOrEqual(30);
  // Sealed: neither the plan id nor a price can be read from it.
  expect(cookie!.value).not.toContain("conecta");

  await context.addCookies([
    { name: "cart", value: `${cookie!.value.slice(0, -4)}AAAA`, url: baseURL! },
  ]);
  const response = await page.goto("/cart");
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("cart-empty")).toBeVisible();
  await expect(page.getByTestId("cart-count")).toHaveText("0");
});

test("the payment notification endpoint refuses unsigned notifications", async ({ request }) => {
  const response = await request.post("/payments/webhook/sandbox", {
    data: { payment_id: "pay_x", status: "approved", amount: 1 },
    headers: { "x-sandbox-signature": "t=1,v1=00" },
  });
  expect(response.status()).toBe(401);
  const other = await request.post("/payments/webhook/otro", { data: {} });
  expect(other.status()).toBe(404);
});
