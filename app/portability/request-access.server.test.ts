import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { createCookieJar } from "~/lib/cookie-jar.server";
import { createSealedCookie } from "~/lib/sealed-cookie.server";
import { portabilitySchema } from "./portability-schema";
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

describe("the portability form's keys", () => {
  it("are new for every view of the form, and every one is this browser's own", () => {
    const first = requestOf();
    const one = portabilityFormKey(first);
    const later = requestOf(first);
    const two = portabilityFormKey(later);
    expect(two).not.toBe(one);
    for (const key of [one, two]) {
      expect(isOwnFormKey(requestOf(first), key)).toBe(true);
      expect(portabilitySchema.shape.idempotency_key.safeParse(key).success).toBe(true);
    }
  });

  it("open nothing in another browser, nor when altered", () => {
    const owner = requestOf();
    const key = portabilityFormKey(owner);
    const stranger = requestOf();
    portabilityFormKey(stranger);
    expect(isOwnFormKey(requestOf(stranger), key)).toBe(false);
    expect(isOwnFormKey(requestOf(), key)).toBe(false);
    const flipped = `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`;
    expect(isOwnFormKey(requestOf(owner), flipped)).toBe(false);
    expect(isOwnFormKey(requestOf(owner), "3b241101-e2bb-4255-8caf-4136c566a962")).toBe(false);
  });
});

describe("the requests a browser submitted", () => {
  it("show for an hour, the last five", () => {
    const now = Date.now();
    let context = requestOf();
    portabilityFormKey(context);
    for (let n = 1; n <= 6; n++) {
      context = requestOf(context);
      rememberPortabilityRequest(context, id(n), now);
    }
    context = requestOf(context);
    expect(readSubmittedRequests(context, now)).toEqual([2, 3, 4, 5, 6].map(id));
    expect(readSubmittedRequests(context, now + 61 * 60 * 1000)).toEqual([]);
  });
});
