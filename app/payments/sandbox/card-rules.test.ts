import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { passesLuhn } from "~/lib/luhn";
import {
  cardBrand,
  createCardSchema,
  expiryIsCurrent,
  sandboxOutcome,
  TEST_CARDS,
} from "./card-rules";

const now = new Date("2026-11-15T12:00:00Z");
const schema = createCardSchema(() => now);
const valid = {
  card_number: "4242 4242 4242 4242",
  card_expiry: "12/30",
  card_cvc: "123",
  cardholder_name: "Ana López",
};

function submit(overrides: Partial<Record<keyof typeof valid, string>>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries({ ...valid, ...overrides })) formData.set(name, value);
  return parseWithZod(formData, { schema });
}

function errorOf(
  overrides: Partial<Record<keyof typeof valid, string>>,
  field: keyof typeof valid,
) {
  const submission = submit(overrides);
  if (submission.status !== "error") throw new Error(`expected ${field} to be refused`);
  return submission.error?.[field]?.[0]?.replace("commerce:sandbox.errors.", "");
}

describe("the sandbox card rules", () => {
  it("checks numbers with the Luhn algorithm", () => {
    expect(passesLuhn(TEST_CARDS.approved)).toBe(true);
    expect(passesLuhn(TEST_CARDS.declined)).toBe(true);
    expect(passesLuhn(TEST_CARDS.insufficientFunds)).toBe(true);
    expect(passesLuhn("378282246310005")).toBe(true);
    expect(passesLuhn("4242424242424241")).toBe(false);
    expect(passesLuhn("42424242a4242424")).toBe(false);
  });

  it("recognises the brand from the number", () => {
    expect(cardBrand("4242424242424242")).toBe("visa");
    expect(cardBrand("5555555555554444")).toBe("mastercard");
    expect(cardBrand("2223003122003222")).toBe("mastercard");
    expect(cardBrand("378282246310005")).toBe("amex");
    expect(cardBrand("6011111111111117")).toBe("other");
  });

  it("knows its three test cards and declines every other card", () => {
    expect(sandboxOutcome(TEST_CARDS.approved)).toEqual({ status: "approved" });
    expect(sandboxOutcome(TEST_CARDS.declined)).toEqual({
      status: "declined",
      reason: "card_declined",
    });
    expect(sandboxOutcome(TEST_CARDS.insufficientFunds)).toEqual({
      status: "declined",
      reason: "insufficient_funds",
    });
    expect(sandboxOutcome("5555555555554444")).toEqual({
      status: "declined",
      reason: "test_card_required",
    });
  });

  it("accepts a card through the end of its expiry month", () => {
    expect(expiryIsCurrent(11, 26, now)).toBe(true);
    expect(expiryIsCurrent(10, 26, now)).toBe(false);
    expect(expiryIsCurrent(1, 27, now)).toBe(true);
    expect(expiryIsCurrent(12, 25, now)).toBe(false);
  });

  it("accepts a valid test card written with spaces or dashes, keeping only digits", () => {
    const submission = submit({ card_number: "4242-4242-4242-4242" });
    expect(submission.status).toBe("success");
    if (submission.status === "success")
      expect(submission.value.card_number).toBe(TEST_CARDS.approved);
  });

  it("rejects a missing, short or mistyped card number", () => {
    expect(errorOf({ card_number: "" }, "card_number")).toBe("cardNumberRequired");
    expect(errorOf({ card_number: "4242 4242" }, "card_number")).toBe("cardNumberDigits");
    expect(errorOf({ card_number: "4242 4242 4242 4241" }, "card_number")).toBe(
      "cardNumberInvalid",
    );
  });

  it("requires the expiry as MM/AA or MMAA, not in the past", () => {
    expect(errorOf({ card_expiry: "" }, "card_expiry")).toBe("expiryRequired");
    expect(errorOf({ card_expiry: "1/30" }, "card_expiry")).toBe("expiryFormat");
    expect(errorOf({ card_expiry: "12-30" }, "card_expiry")).toBe("expiryFormat");
    expect(errorOf({ card_expiry: "13/30" }, "card_expiry")).toBe("expiryFormat");
    expect(errorOf({ card_expiry: "12/2030" }, "card_expiry")).toBe("expiryFormat");
    expect(errorOf({ card_expiry: "10/26" }, "card_expiry")).toBe("expiryPast");
    expect(submit({ card_expiry: "11/26" }).status).toBe("success");
  });

  it("takes MMAA from a numeric keypad as MM/AA, with one message for a date that has passed", () => {
    expect(submit({ card_expiry: "1229" }).status).toBe("success");
    expect(submit({ card_expiry: " 11 26 " }).status).toBe("success");
    const past = submit({ card_expiry: "1025" });
    expect(past.status).toBe("error");
    expect(past.status === "error" ? past.error?.card_expiry : null).toEqual([
      "commerce:sandbox.errors.expiryPast",
    ]);
    const wrong = submit({ card_expiry: "1329" });
    expect(wrong.status === "error" ? wrong.error?.card_expiry : null).toEqual([
      "commerce:sandbox.errors.expiryFormat",
    ]);
    // A wrong expiry does not hide what else is wrong with the card.
    const both = submit({ card_expiry: "1329", card_cvc: "1" });
    expect(both.status === "error" ? both.error?.card_cvc : null).toEqual([
      "commerce:sandbox.errors.cvcDigits",
    ]);
  });

  it("requires a three-digit CVC, four for American Express", () => {
    expect(errorOf({ card_cvc: "" }, "card_cvc")).toBe("cvcRequired");
    expect(errorOf({ card_cvc: "12" }, "card_cvc")).toBe("cvcDigits");
    expect(errorOf({ card_cvc: "1234" }, "card_cvc")).toBe("cvcDigits");
    expect(errorOf({ card_cvc: "12a" }, "card_cvc")).toBe("cvcDigits");
    expect(errorOf({ card_number: "378282246310005", card_cvc: "123" }, "card_cvc")).toBe(
      "cvcAmex",
    );
    expect(submit({ card_number: "378282246310005", card_cvc: "1234" }).status).toBe("success");
  });

  it("requires the cardholder's name", () => {
    expect(errorOf({ cardholder_name: "" }, "cardholder_name")).toBe("nameRequired");
    expect(errorOf({ cardholder_name: "A" }, "cardholder_name")).toBe("nameRequired");
    expect(errorOf({ cardholder_name: "A".repeat(81) }, "cardholder_name")).toBe("nameTooLong");
  });
});
