import { describe, expect, it } from "vitest";
import {
  canSeeOrder,
  markCartCleared,
  orderAccessSchema,
  rememberOrder,
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
      draft: { key: "0b5f7c1e-8d0a-4c4f-9d7e-3f2a1b6c5d4e", cart: "conecta-50*1" },
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
});
