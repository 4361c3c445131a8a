import { describe, expect, it } from "vitest";
import { isOwnFormKey } from "~/lib/form-key.server";
import { newBrowser } from "../../tests/support/browser-requests";
import {
  canSeeOrder,
  checkoutKey,
  emptiesCartFirst,
  isDraftKey,
  markCartCleared,
  orderAccessSchema,
  readOrderAccess,
  rememberOrder,
  saveOrderAccess,
  type OrderAccess,
} from "./order-access.server";

const ref = (index: number) => `order-reference-${String(index).padStart(6, "0")}`;
const empty: OrderAccess = { accessId: "access-id-0123456789", placed: [], draft: null };

describe("the orders a browser may see", () => {
  it("are only the ones it placed", () => {
    const access = rememberOrder(empty, ref(1));
    expect(canSeeOrder(access, ref(1))).toBe(true);
    expect(canSeeOrder(access, ref(2))).toBe(false);
    expect(rememberOrder(access, ref(1))).toBe(access);
  });

  it("keep the 20 most recent, so the cookie stays small", () => {
    let access = empty;
    for (let index = 1; index <= 25; index++) access = rememberOrder(access, ref(index));
    expect(access.placed).toHaveLength(20);
    expect(canSeeOrder(access, ref(5))).toBe(false);
    expect(canSeeOrder(access, ref(25))).toBe(true);
    expect(orderAccessSchema.safeParse(access).success).toBe(true);
  });

  it("note when the cart was emptied for a paid order and drop the checkout in progress", () => {
    const access: OrderAccess = {
      ...empty,
      placed: [
        { ref: ref(1), cartCleared: false },
        { ref: ref(2), cartCleared: false },
      ],
      draft: { nonce: "Qm9sYS1kZS1wcnVl", cart: "conecta-50*1" },
    };
    expect(markCartCleared(access, ref(2))).toEqual({
      accessId: empty.accessId,
      placed: [
        { ref: ref(1), cartCleared: false },
        { ref: ref(2), cartCleared: true },
      ],
      draft: null,
    });
  });

  it("refuse a cookie value of the wrong shape", () => {
    expect(orderAccessSchema.safeParse({ placed: [{ ref: "x" }], draft: null }).success).toBe(
      false,
    );
    expect(
      orderAccessSchema.safeParse({ ...empty, draft: { key: "not-a-uuid", cart: "" } }).success,
    ).toBe(false);
  });

  it("read a draft from before the shared form keys as none, keeping the orders placed", () => {
    const before = {
      ...rememberOrder(empty, ref(1)),
      draft: { key: "0b5f7c1e-8d0a-4c4f-9d7e-3f2a1b6c5d4e", cart: "conecta-50*1" },
    };
    const read = orderAccessSchema.safeParse(before);
    expect(read.success).toBe(true);
    expect(read.data?.draft).toBeNull();
    expect(canSeeOrder(read.data!, ref(1))).toBe(true);
  });
});

describe("the checkout's key", () => {
  const cart = [{ id: "conecta-50", quantity: 1 }];
  const otherCart = [{ id: "conecta-100", quantity: 1 }];

  it("is the same for the same cart in the same browser (a reload, a second tab), and this browser's own", () => {
    const browser = newBrowser();
    const key = checkoutKey(browser.request(), cart);
    expect(checkoutKey(browser.request(), cart)).toBe(key);
    const later = browser.request();
    expect(isOwnFormKey(later, "checkout", key)).toBe(true);
    expect(isDraftKey(readOrderAccess(later), key)).toBe(true);
  });

  it("is new for a different cart, and for the same cart in another browser", () => {
    const browser = newBrowser();
    const key = checkoutKey(browser.request(), cart);
    const other = checkoutKey(browser.request(), otherCart);
    expect(other).not.toBe(key);
    const later = browser.request();
    expect(isDraftKey(readOrderAccess(later), key)).toBe(false);
    expect(isOwnFormKey(later, "checkout", key)).toBe(true);
    const stranger = newBrowser();
    expect(checkoutKey(stranger.request(), cart)).not.toBe(key);
    expect(isOwnFormKey(stranger.request(), "checkout", key)).toBe(false);
  });

  it("is new once the cart was emptied for a paid order, even for the same items", () => {
    const browser = newBrowser();
    const key = checkoutKey(browser.request(), cart);
    const paying = browser.request();
    saveOrderAccess(
      paying,
      markCartCleared(rememberOrder(readOrderAccess(paying), ref(1)), ref(1)),
    );
    expect(checkoutKey(browser.request(), cart)).not.toBe(key);
  });
});

describe("the first view of an order placed here", () => {
  it("is its page until the cart was emptied there: the waiting message is for the view after", () => {
    const browser = newBrowser();
    saveOrderAccess(browser.request(), rememberOrder(empty, ref(1)));
    const page = (path: string) =>
      emptiesCartFirst(browser.request(), new URL(path, "http://localhost"));
    expect(page(`/confirmation?pedido=${ref(1)}`)).toBe(true);
    expect(page(`/confirmation?pedido=${ref(1)}&_data=root`)).toBe(true);
    expect(page(`/confirmation?pedido=${ref(2)}`)).toBe(false);
    expect(page(`/pedido?pedido=${ref(1)}`)).toBe(false);
    expect(page("/confirmation")).toBe(false);

    saveOrderAccess(browser.request(), markCartCleared(rememberOrder(empty, ref(1)), ref(1)));
    expect(page(`/confirmation?pedido=${ref(1)}`)).toBe(false);
  });
});
