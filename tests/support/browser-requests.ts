import { createCookieJar } from "~/lib/cookie-jar.server";
import { createSealedCookie } from "~/lib/sealed-cookie.server";
import { FORM_KEY_SECRET_MAX_AGE_SECONDS, formKeySecretSchema } from "~/lib/form-key.server";
import { ORDER_ACCESS_MAX_AGE_SECONDS, orderAccessSchema } from "~/checkout/order-access.server";
import { balanceAccessCookieSpec } from "~/line/balance-access.server";
import { flashCookieSpec } from "~/lib/flash.server";
import { registrationAccessCookieSpec } from "~/registration/registration-access.server";
import {
  PORTABILITY_ACCESS_MAX_AGE_SECONDS,
  portabilityAccessSchema,
} from "~/portability/request-access.server";
import {
  ACTIVATION_ACCESS_MAX_AGE_SECONDS,
  activationAccessSchema,
} from "~/line/activation-access.server";
import type { RequestContext } from "~/context";

const secrets = ["browser-requests-under-test-".padEnd(40, "b")];

/** The sealed cookies a form's key and its draft live in, as the server makes them. */
export const browserCookies = {
  formKeys: createSealedCookie({
    name: "form_keys",
    secrets,
    secure: false,
    maxAgeSeconds: FORM_KEY_SECRET_MAX_AGE_SECONDS,
    schema: formKeySecretSchema,
  }),
  orderAccess: createSealedCookie({
    name: "orders",
    secrets,
    secure: false,
    maxAgeSeconds: ORDER_ACCESS_MAX_AGE_SECONDS,
    schema: orderAccessSchema,
  }),
  portability: createSealedCookie({
    name: "portabilidad",
    secrets,
    secure: false,
    maxAgeSeconds: PORTABILITY_ACCESS_MAX_AGE_SECONDS,
    schema: portabilityAccessSchema,
  }),
  balance: createSealedCookie({ ...balanceAccessCookieSpec, secrets, secure: false }),
  flash: createSealedCookie({ ...flashCookieSpec, secrets, secure: false }),
  registration: createSealedCookie({ ...registrationAccessCookieSpec, secrets, secure: false }),
  activations: createSealedCookie({
    name: "activaciones",
    secrets,
    secure: false,
    maxAgeSeconds: ACTIVATION_ACCESS_MAX_AGE_SECONDS,
    schema: activationAccessSchema,
  }),
};

/**
 * A browser, as far as cookies and view tokens go: each `request()` starts from the cookies every
 * earlier request of this browser left (what was sent, set or cleared).
 */
export function newBrowser(extra: Partial<RequestContext> = {}) {
  const cookies = new Map<string, string>();
  /** The requests whose answers the browser has yet to take in, in the order they arrive. */
  let unanswered: RequestContext[] = [];
  const absorb = (context: RequestContext) => {
    for (const line of context.jar.setCookieHeaders({ redirect: false })) {
      const [pair = "", ...attributes] = line.split(";");
      const separator = pair.indexOf("=");
      const name = pair.slice(0, separator).trim();
      if (attributes.some((attribute) => attribute.trim() === "Max-Age=0")) cookies.delete(name);
      else cookies.set(name, pair.slice(separator + 1));
    }
  };
  /** Requests sent together: each with the same cookies, their answers taken in this order. */
  const together = (...overrides: Array<Partial<RequestContext>>): RequestContext[] => {
    for (const context of unanswered) absorb(context);
    const header = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    unanswered = overrides.map((override) => {
      const viewTokens: string[] = [];
      return {
        jar: createCookieJar(header || null),
        cookies: browserCookies,
        viewTokens,
        newViewToken(token: string) {
          viewTokens.push(token);
          return token;
        },
        ...extra,
        ...override,
      } as unknown as RequestContext;
    });
    return unanswered;
  };
  return {
    request(override: Partial<RequestContext> = {}): RequestContext {
      return together(override)[0]!;
    },
    together,
  };
}
