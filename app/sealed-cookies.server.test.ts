import { describe, expect, it } from "vitest";
import { createSealedCookies, SEALED_COOKIE_SPECS } from "./sealed-cookies.server";

const secrets = ["a-secret-long-enough-for-the-tests-0123456789"];

describe("the sealed cookies", () => {
  it("keep the names and lifetimes browsers already hold (a renamed cookie signs everyone out)", () => {
    const cookies = createSealedCookies({ secrets, secure: false });
    const shape = Object.fromEntries(
      Object.entries(cookies).map(([key, cookie]) => [key, [cookie.name, cookie.maxAgeSeconds]]),
    );
    expect(shape).toEqual({
      flash: ["flash", 60],
      cart: ["cart", 30 * 24 * 3600],
      orderAccess: ["orders", 90 * 24 * 3600],
      portability: ["portabilidad", 24 * 3600],
      formKeys: ["form_keys", 90 * 24 * 3600],
      authSession: ["auth_session", 30 * 24 * 3600],
      authPending: ["auth_pending", 900],
      accountTotpSetup: ["auth_totp_setup", 600],
      authOauth: ["auth_oauth", 600],
      sandboxPayer: ["sandbox_pagos", 8 * 24 * 3600],
      balance: ["saldo", 15 * 60],
      activations: ["activaciones", 24 * 3600],
      registration: ["registro", 15 * 60],
      rememberedDevices: ["auth_devices", 365 * 24 * 3600],
    });
  });

  it("have one name each, whichever capability declares them", () => {
    const names = Object.values(SEALED_COOKIE_SPECS).map((spec) => spec.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("carry the __Host- prefix in production", () => {
    const cookies = createSealedCookies({ secrets, secure: true });
    for (const cookie of Object.values(cookies)) expect(cookie.name).toMatch(/^__Host-/);
  });

  it("each read back what was written, checked by its capability's schema", () => {
    const cookies = createSealedCookies({ secrets, secure: false });
    const header = (setCookies: string[]) =>
      setCookies.map((line) => line.split(";")[0]).join("; ");
    const cart = [{ id: "conecta-150", quantity: 2 }];
    expect(cookies.cart.read(header(cookies.cart.write(cart, null)))).toEqual(cart);
    // A value of another cookie's shape does not pass the cart's schema.
    const flash = header(cookies.flash.write({ kind: "info", key: "x" }, null)).replace(
      "flash=",
      "cart=",
    );
    expect(cookies.cart.read(flash)).toBeNull();
  });
});
