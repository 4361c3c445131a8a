import { describe, expect, it } from "vitest";
import { newBrowser } from "../../tests/support/browser-requests";
import { readSubmittedRequests, rememberPortabilityRequest } from "./request-access.server";

const id = (n: number) => `request-id-${String(n).padStart(8, "0")}`;

describe("the requests a browser submitted", () => {
  it("show for an hour, the last ten (as many as one order keeps)", () => {
    const now = Date.now();
    const browser = newBrowser();
    for (let n = 1; n <= 11; n++) rememberPortabilityRequest(browser.request(), id(n), now);
    const context = browser.request();
    expect(readSubmittedRequests(context, now)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(id));
    expect(readSubmittedRequests(context, now + 61 * 60 * 1000)).toEqual([]);
  });

  it("show in that browser only", () => {
    const now = Date.now();
    rememberPortabilityRequest(newBrowser().request(), id(1), now);
    expect(readSubmittedRequests(newBrowser().request(), now)).toEqual([]);
  });
});
