import { describe, expect, it } from "vitest";
import { DEFAULT_ACTION_LABEL_KEY, actionLabelKey } from "./flash";
import { flashSchema } from "./flash.server";

const message = { kind: "success", key: "commerce:cart.flash.added" } as const;

describe("a message's action", () => {
  it("is labelled by its own key, or the spec's default label («Acción»)", () => {
    expect(actionLabelKey({ href: "/cart", labelKey: "commerce:cart.flash.viewCart" })).toBe(
      "commerce:cart.flash.viewCart",
    );
    expect(actionLabelKey({ href: "/cart" })).toBe(DEFAULT_ACTION_LABEL_KEY);
    expect(DEFAULT_ACTION_LABEL_KEY).toBe("flash.action");
  });

  it("leads to a page of this site only", () => {
    expect(flashSchema.safeParse({ ...message, action: { href: "/cart" } }).success).toBe(true);
    for (const href of ["//evil.example", "/\\evil.example", "https://evil.example", "cart", ""]) {
      expect(flashSchema.safeParse({ ...message, action: { href } }).success, href).toBe(false);
    }
  });
});
