import type * as z from "zod";
import {
  accountTotpSetupCookieSpec,
  authPendingCookieSpec,
  authSessionCookieSpec,
} from "./auth/session.server";
import { authOauthCookieSpec } from "./auth/oauth.server";
import { rememberedDevicesCookieSpec } from "./auth/remembered-devices.server";
import { cartCookieSpec } from "./cart/cart-session.server";
import { orderAccessCookieSpec } from "./checkout/order-access.server";
import { flashCookieSpec } from "./lib/flash.server";
import { formKeysCookieSpec } from "./lib/form-key.server";
import { activationAccessCookieSpec } from "./line/activation-access.server";
import {
  createSealedCookie,
  type SealedCookie,
  type SealedCookieSpec,
} from "./lib/sealed-cookie.server";
import { balanceAccessCookieSpec } from "./line/balance-access.server";
import { sandboxPayerCookieSpec } from "./payments/sandbox/page-access.server";
import { portabilityAccessCookieSpec } from "./portability/request-access.server";
import { registrationAccessCookieSpec } from "./registration/registration-access.server";

/**
 * Every sealed cookie the store sets, by the name the code reads it under (`context.cookies.cart`).
 * Each spec (name, lifetime, schema) lives with the capability that keeps the cookie; this list
 * only gathers them, so the server makes them all the same way (decision 0085).
 */
export const SEALED_COOKIE_SPECS = {
  flash: flashCookieSpec,
  cart: cartCookieSpec,
  orderAccess: orderAccessCookieSpec,
  portability: portabilityAccessCookieSpec,
  formKeys: formKeysCookieSpec,
  authSession: authSessionCookieSpec,
  authPending: authPendingCookieSpec,
  accountTotpSetup: accountTotpSetupCookieSpec,
  authOauth: authOauthCookieSpec,
  rememberedDevices: rememberedDevicesCookieSpec,
  sandboxPayer: sandboxPayerCookieSpec,
  balance: balanceAccessCookieSpec,
  activations: activationAccessCookieSpec,
  registration: registrationAccessCookieSpec,
};

type SpecValue<S> = S extends SealedCookieSpec<unknown> ? z.output<S["schema"]> : never;

export type SealedCookies = {
  [K in keyof typeof SEALED_COOKIE_SPECS]: SealedCookie<SpecValue<(typeof SEALED_COOKIE_SPECS)[K]>>;
};

/** Each listed cookie, sealed with the session secrets (the first seals, every one opens). */
export function createSealedCookies(options: {
  secrets: string[];
  secure: boolean;
}): SealedCookies {
  return Object.fromEntries(
    Object.entries(SEALED_COOKIE_SPECS).map(([key, spec]) => [
      key,
      createSealedCookie<unknown>({ ...spec, ...options }),
    ]),
  ) as SealedCookies;
}
