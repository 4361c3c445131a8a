import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { createCookieJar } from "~/lib/cookie-jar.server";
import { createSealedCookie } from "~/lib/sealed-cookie.server";
import {
  PORTABILITY_ACCESS_MAX_AGE_SECONDS,
  isOwnFormKey,
  portabilityAccessSchema,
  portabilityFormKey,
  readSubmittedRequests,
  rememberPortabilityRequest,
} from "./request-access.server";

const cookie = createSealedCookie({
  name: "portabilidad",
  secrets: ["portability-access-".padEnd(40, "p")],
  secure: false,
  maxAgeSeconds: PORTABILITY_ACCESS_MAX_AGE_SECONDS,
  schema: portabilityAccessSchema,
});

/** One request of a browser: its jar starts from what the previous request left. */
function requestOf(previous?: AppLoadContext): AppLoadContext {
  const header = previous
    ? previous.jar
        .setCookieHeaders({ redirect: false })
        .map((line) => line.split(";")[0])
        .join("; ")
    : null;
  return { jar: createCookieJar(header), cookies: { portability: cookie } } as AppLoadContext;
}

const id = (n: number) => `request-id-${String(n).padStart(8, "0")}`;

describe("what a browser holds of portability", () => {
  it("gets one form key, kept until a request is recorded, then a new one", () => {
    const first = requestOf();
    const key = portabilityFormKey(first);
    const second = requestOf(first);
    expect(portabilityFormKey(second)).toBe(key);
    expect(isOwnFormKey(second, key)).toBe(true);
    rememberPortabilityRequest(second, id(1));
    const third = requestOf(second);
    expect(isOwnFormKey(third, key)).toBe(false);
    expect(portabilityFormKey(third)).not.toBe(key);
    expect(readSubmittedRequests(third)).toEqual([id(1)]);
  });

  it("a key from another browser is not its own", () => {
    const owner = requestOf();
    const stranger = requestOf();
    expect(isOwnFormKey(stranger, portabilityFormKey(owner))).toBe(false);
  });

  it("shows a submitted request for an hour, and remembers the last five", () => {
    const now = Date.now();
    let context = requestOf();
    for (let n = 1; n <= 6; n++) {
      rememberPortabilityRequest(context, id(n), now);
      context = requestOf(context);
    }
    expect(readSubmittedRequests(context, now)).toEqual([2, 3, 4, 5, 6].map(id));
    expect(readSubmittedRequests(context, now + 61 * 60 * 1000)).toEqual([]);
  });
});
