import { describe, expect, it } from "vitest";
import { routeNamespaces } from "./i18n";

describe("routeNamespaces", () => {
  it("reads each route's handle.i18n, a name or a list, once each", () => {
    expect(
      routeNamespaces({
        root: { handle: { i18n: ["common"] } },
        "routes/plans": { handle: { i18n: "commerce" } },
        "routes/checkout": { handle: { i18n: ["commerce", "portability"] } },
      }),
    ).toEqual(["common", "commerce", "portability"]);
  });

  it("skips routes without a handle, without i18n, or with something else in it", () => {
    expect(
      routeNamespaces({
        a: undefined,
        b: {},
        c: { handle: null },
        d: { handle: { renderMemo: true } },
        e: { handle: { i18n: [1, "help"] } },
        f: { handle: { i18n: { ns: "auth" } } },
      }),
    ).toEqual(["help"]);
  });
});
