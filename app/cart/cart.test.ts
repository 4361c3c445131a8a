import { describe, expect, it } from "vitest";
import type { Plan } from "~/catalog/plan";
import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import {
  addItem,
  applyCartIntent,
  cartCount,
  cartTotal,
  clearCart,
  decrementItem,
  incrementItem,
  integerPrice,
  isCartIntent,
  removeItem,
  type CartItem,
} from "./cart";
import { cartFingerprint, priceCart } from "./cart-lines";
import { applyPendingCartSubmissions } from "./optimistic";

const plan = (id: string, price: number | string) => ({ id, price });

describe("the cart rules (spec §4)", () => {
  it("adds a new item with quantity 1", () => {
    expect(addItem<CartItem>([], plan("a", 100))).toEqual([{ id: "a", price: 100, quantity: 1 }]);
  });

  it("adding an id already in the cart increments it instead of adding a line", () => {
    const once = addItem<CartItem>([], plan("a", 100));
    const twice = addItem(once, plan("a", 100));
    expect(twice).toEqual([{ id: "a", price: 100, quantity: 2 }]);
  });

  it("keeps other items and their order when adding", () => {
    const cart = addItem(addItem<CartItem>([], plan("a", 100)), plan("b", 50));
    expect(addItem(cart, plan("a", 100)).map((item) => [item.id, item.quantity])).toEqual([
      ["a", 2],
      ["b", 1],
    ]);
  });

  it("increments only the named item", () => {
    const cart: CartItem[] = [
      { id: "a", price: 1, quantity: 1 },
      { id: "b", price: 1, quantity: 4 },
    ];
    expect(incrementItem(cart, "b")).toEqual([
      { id: "a", price: 1, quantity: 1 },
      { id: "b", price: 1, quantity: 5 },
    ]);
  });

  it("decrements, and decrementing at quantity 1 removes the item", () => {
    const cart: CartItem[] = [
      { id: "a", price: 1, quantity: 2 },
      { id: "b", price: 1, quantity: 1 },
    ];
    expect(decrementItem(cart, "a")).toEqual([
      { id: "a", price: 1, quantity: 1 },
      { id: "b", price: 1, quantity: 1 },
    ]);
    expect(decrementItem(cart, "b")).toEqual([{ id: "a", price: 1, quantity: 2 }]);
  });

  it("removes an item whatever its quantity, and clears everything", () => {
    const cart: CartItem[] = [
      { id: "a", price: 1, quantity: 7 },
      { id: "b", price: 1, quantity: 1 },
    ];
    expect(removeItem(cart, "a")).toEqual([{ id: "b", price: 1, quantity: 1 }]);
    expect(clearCart(cart)).toEqual([]);
  });

  it("leaves the cart alone for an id it does not hold", () => {
    const cart: CartItem[] = [{ id: "a", price: 1, quantity: 1 }];
    expect(incrementItem(cart, "z")).toEqual(cart);
    expect(decrementItem(cart, "z")).toEqual(cart);
    expect(removeItem(cart, "z")).toEqual(cart);
  });

  it("never changes the cart it was given", () => {
    const cart: CartItem[] = [{ id: "a", price: 1, quantity: 1 }];
    addItem(cart, plan("a", 1));
    decrementItem(cart, "a");
    expect(cart).toEqual([{ id: "a", price: 1, quantity: 1 }]);
  });

  it("counts the sum of quantities", () => {
    expect(cartCount([])).toBe(0);
    expect(
      cartCount([
        { id: "a", quantity: 2 },
        { id: "b", quantity: 3 },
      ]),
    ).toBe(5);
  });

  it("totals quantity × integer-parsed price, numeric strings included", () => {
    expect(
      cartTotal([
        { id: "a", price: 150, quantity: 2 },
        { id: "b", price: "200", quantity: 1 },
        { id: "c", price: "99.90", quantity: 3 },
      ]),
    ).toBe(300 + 200 + 99 * 3);
  });

  it("parses prices as integers the way the spec does", () => {
    expect(integerPrice(199)).toBe(199);
    expect(integerPrice(199.99)).toBe(199);
    expect(integerPrice("250")).toBe(250);
    expect(integerPrice(" 250 ")).toBe(250);
    expect(integerPrice("250 MXN")).toBe(250);
    expect(integerPrice("gratis")).toBe(0);
  });

  it("has no maximum quantity", () => {
    let cart: CartItem[] = [];
    for (let index = 0; index < 1_000; index++) cart = addItem(cart, plan("a", 50));
    expect(cart).toEqual([{ id: "a", price: 50, quantity: 1_000 }]);
    expect(cartTotal(cart)).toBe(50_000);
    expect(incrementItem([{ id: "a", price: 1, quantity: 1_000_000 }], "a")[0].quantity).toBe(
      1_000_001,
    );
  });

  it("applies each POST /cart intent by the same rules", () => {
    expect(isCartIntent("add")).toBe(true);
    expect(isCartIntent("fly")).toBe(false);
    expect(isCartIntent(null)).toBe(false);
    let cart = applyCartIntent([], "add", "a");
    cart = applyCartIntent(cart, "add", "a");
    cart = applyCartIntent(cart, "add", "b");
    cart = applyCartIntent(cart, "increment", "b");
    expect(cart).toEqual([
      { id: "a", quantity: 2 },
      { id: "b", quantity: 2 },
    ]);
    cart = applyCartIntent(cart, "decrement", "a");
    cart = applyCartIntent(cart, "decrement", "a");
    expect(cart).toEqual([{ id: "b", quantity: 2 }]);
    expect(applyCartIntent(cart, "remove", "b")).toEqual([]);
    expect(applyCartIntent(cart, "clear", "")).toEqual([]);
  });
});

describe("the priced cart", () => {
  const find = (id: string) => PLAN_CATALOGUE.find((candidate) => candidate.id === id);
  const byId = (id: string) => find(id) as Plan;

  it("takes prices from the catalogue, never from the stored items", () => {
    const priced = priceCart(
      [
        { id: "conecta-150", quantity: 2 },
        { id: "conecta-50", quantity: 1 },
      ],
      find,
    );
    expect(priced.lines.map((line) => [line.plan.id, line.quantity, line.lineTotal])).toEqual([
      ["conecta-150", 2, 2 * byId("conecta-150").price],
      ["conecta-50", 1, byId("conecta-50").price],
    ]);
    expect(priced.count).toBe(3);
    expect(priced.total).toBe(2 * byId("conecta-150").price + byId("conecta-50").price);
  });

  it("drops plans that are no longer on sale", () => {
    const priced = priceCart([{ id: "retired-plan", quantity: 3 }], find);
    expect(priced).toEqual({ lines: [], count: 0, total: 0 });
  });

  it("fingerprints a cart by content, not by order", () => {
    expect(
      cartFingerprint([
        { id: "b", quantity: 1 },
        { id: "a", quantity: 2 },
      ]),
    ).toBe(
      cartFingerprint([
        { id: "a", quantity: 2 },
        { id: "b", quantity: 1 },
      ]),
    );
    expect(cartFingerprint([{ id: "a", quantity: 2 }])).not.toBe(
      cartFingerprint([{ id: "a", quantity: 3 }]),
    );
  });
});

describe("the optimistic cart", () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.set(name, value);
    return data;
  };

  it("applies pending submissions in order, ignoring ones the server would refuse", () => {
    const items = [{ id: "a", quantity: 1 }];
    const result = applyPendingCartSubmissions(items, [
      form({ intent: "add", id: "b" }),
      form({ intent: "increment", id: "a" }),
      form({ intent: "fly", id: "a" }),
      form({ intent: "decrement" }),
    ]);
    expect(result).toEqual([
      { id: "a", quantity: 2 },
      { id: "b", quantity: 1 },
    ]);
    expect(applyPendingCartSubmissions(result, [form({ intent: "clear" })])).toEqual([]);
  });
});
