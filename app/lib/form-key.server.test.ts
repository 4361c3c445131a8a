import { describe, expect, it } from "vitest";
import { portabilitySchema } from "~/portability/portability-schema";
import { newBrowser } from "../../tests/support/browser-requests";
import { FORM_KEY_PATTERN } from "./form-key";
import { issueFormKey, isOwnFormKey, newFormKeyNonce } from "./form-key.server";

describe("a form's keys", () => {
  it("are new for every view of the form, and every one is this browser's own", () => {
    const browser = newBrowser();
    const one = issueFormKey(browser.request(), "portability");
    const two = issueFormKey(browser.request(), "portability");
    expect(two).not.toBe(one);
    const later = browser.request();
    for (const key of [one, two]) {
      expect(key).toMatch(FORM_KEY_PATTERN);
      expect(isOwnFormKey(later, "portability", key)).toBe(true);
      expect(portabilitySchema.shape.idempotency_key.safeParse(key).success).toBe(true);
    }
  });

  it("open nothing in another browser, nor when altered", () => {
    const owner = newBrowser();
    const key = issueFormKey(owner.request(), "portability");
    const stranger = newBrowser();
    issueFormKey(stranger.request(), "portability");
    expect(isOwnFormKey(stranger.request(), "portability", key)).toBe(false);
    expect(isOwnFormKey(newBrowser().request(), "portability", key)).toBe(false);
    const flipped = `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`;
    const again = owner.request();
    expect(isOwnFormKey(again, "portability", flipped)).toBe(false);
    expect(isOwnFormKey(again, "portability", "3b241101-e2bb-4255-8caf-4136c566a962")).toBe(false);
  });

  it("are good for their own form only", () => {
    const browser = newBrowser();
    const key = issueFormKey(browser.request(), "topup");
    const later = browser.request();
    expect(isOwnFormKey(later, "topup", key)).toBe(true);
    expect(isOwnFormKey(later, "portability", key)).toBe(false);
    expect(isOwnFormKey(later, "checkout", key)).toBe(false);
  });

  it("are the same for the same random part in the same browser (checkout's draft)", () => {
    const browser = newBrowser();
    const nonce = newFormKeyNonce();
    const first = issueFormKey(browser.request(), "checkout", nonce);
    expect(issueFormKey(browser.request(), "checkout", nonce)).toBe(first);
    expect(issueFormKey(newBrowser().request(), "checkout", nonce)).not.toBe(first);
    expect(first).toMatch(FORM_KEY_PATTERN);
  });

  it("are issued as view tokens, so a kept page gets each browser's own", () => {
    const context = newBrowser().request();
    const key = issueFormKey(context, "topup");
    expect(context.viewTokens).toEqual([key]);
  });

  it("stay good when a link's prefetch was sent with the page (a first visit)", () => {
    // Neither request carries a secret yet; the prefetch's answer arrives last.
    const browser = newBrowser();
    const [page, prefetch] = browser.together({}, { isPrefetch: true });
    const key = issueFormKey(page!, "topup");
    issueFormKey(prefetch!, "topup");
    expect(isOwnFormKey(browser.request(), "topup", key)).toBe(true);

    // Two pages viewed at once (two tabs) still make two secrets: the last answer's wins, and
    // the other page's form is refused once with a new key (decision 0086).
    const twoTabs = newBrowser();
    const [first, second] = twoTabs.together({}, {});
    const firstKey = issueFormKey(first!, "topup");
    const secondKey = issueFormKey(second!, "topup");
    const later = twoTabs.request();
    expect(isOwnFormKey(later, "topup", firstKey)).toBe(false);
    expect(isOwnFormKey(later, "topup", secondKey)).toBe(true);
  });
});
