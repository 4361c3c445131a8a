import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { OFFERED_AMOUNTS, TOPUP_AMOUNTS } from "./amounts";
import { maskPhoneNumber } from "./phone";
import { OTHER_LINE, topupSchema } from "./topup-schema";

const KEY = "AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBB";

function submit(fields: Record<string, string>, savedLines: string[] = []) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.append(name, value);
  return parseWithZod(formData, { schema: topupSchema({ savedLines, askEmail: false }) });
}

function errorsOf(result: ReturnType<typeof submit>) {
  return result.status === "success" ? {} : result.reply().error;
}

describe("the top-up form", () => {
  it("accepts a number written the way customers write it, and keeps the ten digits", () => {
    const result = submit({
      phone_number: "(55) 1234-5678",
      phone_number_confirm: "55 1234 5678",
      amount: "100",
      idempotency_key: KEY,
    });
    expect(result.status).toBe("success");
    expect(result.status === "success" && result.value).toEqual({
      phoneNumber: "5512345678",
      amount: 100,
      idempotencyKey: KEY,
      fromSavedLine: false,
      payment: { method: "card", savedCardId: null, saveCard: false },
      email: null,
      unregisteredAcknowledged: null,
    });
  });

  it("refuses a number that is not ten digits", () => {
    for (const phone of ["551234567", "55123456789", "55-1234-567a"]) {
      const errors = errorsOf(
        submit({
          phone_number: phone,
          phone_number_confirm: phone,
          amount: "50",
          idempotency_key: KEY,
        }),
      );
      expect(errors?.phone_number).toEqual(["topup:errors.phoneDigits"]);
    }
  });

  it("refuses a confirmation that does not match, so money never goes to a mistyped line", () => {
    const errors = errorsOf(
      submit({
        phone_number: "5512345678",
        phone_number_confirm: "5512345679",
        amount: "100",
        idempotency_key: KEY,
      }),
    );
    expect(errors?.phone_number_confirm).toEqual(["topup:errors.confirmMismatch"]);
    expect(errors?.phone_number).toBeUndefined();
  });

  it("asks for the confirmation when it is missing", () => {
    const errors = errorsOf(
      submit({ phone_number: "5512345678", amount: "100", idempotency_key: KEY }),
    );
    expect(errors?.phone_number_confirm).toEqual(["topup:errors.confirmRequired"]);
  });

  it("accepts only the offered amounts", () => {
    for (const amount of ["99", "1000", "100.5", "-100", "cien"]) {
      const errors = errorsOf(
        submit({
          phone_number: "5512345678",
          phone_number_confirm: "5512345678",
          amount,
          idempotency_key: KEY,
        }),
      );
      expect(errors?.amount, amount).toEqual(["topup:errors.amountNotOffered"]);
    }
    expect(errorsOf(submit({ idempotency_key: KEY }))?.amount).toEqual([
      "topup:errors.amountRequired",
    ]);
  });

  it("shows every mistake at once", () => {
    const errors = errorsOf(submit({ phone_number: "123", phone_number_confirm: "456" }));
    expect(Object.keys(errors ?? {}).sort()).toEqual([
      "amount",
      "idempotency_key",
      "phone_number",
      "phone_number_confirm",
    ]);
  });

  it("needs the form's idempotency key", () => {
    const errors = errorsOf(
      submit({
        phone_number: "5512345678",
        phone_number_confirm: "5512345678",
        amount: "100",
        idempotency_key: "not-a-key",
      }),
    );
    expect(errors?.idempotency_key).toEqual(["topup:errors.expired"]);
  });

  it("tops up a saved line in one tap, without typing it twice", () => {
    const result = submit({ saved_line: "5511112222", amount: "50", idempotency_key: KEY }, [
      "5511112222",
      "5533334444",
    ]);
    expect(result.status === "success" && result.value).toEqual({
      phoneNumber: "5511112222",
      amount: 50,
      idempotencyKey: KEY,
      fromSavedLine: true,
      payment: { method: "card", savedCardId: null, saveCard: false },
      email: null,
      unregisteredAcknowledged: null,
    });
  });

  it("refuses a 'saved' line that is not among the customer's", () => {
    const errors = errorsOf(
      submit({ saved_line: "5599998888", amount: "50", idempotency_key: KEY }, ["5511112222"]),
    );
    expect(errors?.saved_line).toEqual(["topup:errors.savedLineUnknown"]);
  });

  it("refuses a typed number while a saved line is still selected (ambiguous without JavaScript)", () => {
    const errors = errorsOf(
      submit(
        {
          saved_line: "5511112222",
          phone_number: "5599998888",
          phone_number_confirm: "5599998888",
          amount: "50",
          idempotency_key: KEY,
        },
        ["5511112222"],
      ),
    );
    expect(errors?.phone_number).toEqual(["topup:errors.chooseOtherLine"]);
  });

  it("uses the typed number when 'another number' is chosen", () => {
    const result = submit(
      {
        saved_line: OTHER_LINE,
        phone_number: "5599998888",
        phone_number_confirm: "5599998888",
        amount: "20",
        idempotency_key: KEY,
      },
      ["5511112222"],
    );
    expect(result.status === "success" && result.value.phoneNumber).toBe("5599998888");
  });
});

describe("offered amounts", () => {
  it("are the published ones, each with its validity and data", () => {
    expect(OFFERED_AMOUNTS).toEqual([20, 30, 50, 100, 150, 200, 300, 500]);
    for (const offer of TOPUP_AMOUNTS) {
      expect(offer.validityDays).toBeGreaterThan(0);
      expect(offer.dataMb).toBeGreaterThan(0);
    }
  });
});

describe("masked lines", () => {
  it("show the area code and the last four digits only", () => {
    expect(maskPhoneNumber("5512345678")).toBe("55 •••• 5678");
    expect(maskPhoneNumber("garbage")).toBe("••••");
  });

  it("pays by the method chosen, card when the form sends none, and refuses an unknown one", () => {
    const base = {
      phone_number: "5512345678",
      phone_number_confirm: "5512345678",
      amount: "100",
      idempotency_key: KEY,
    };
    for (const method of ["card", "cash", "spei"]) {
      const parsed = topupSchema({ savedLines: [], askEmail: false }).safeParse({
        ...base,
        payment_method: method,
      });
      expect(parsed.success && parsed.data.payment).toEqual({
        method,
        savedCardId: null,
        saveCard: false,
      });
    }
    const none = topupSchema({ savedLines: [], askEmail: false }).safeParse(base);
    expect(none.success && none.data.payment.method).toBe("card");
    const saved = topupSchema({ savedLines: [], askEmail: false }).safeParse({
      ...base,
      payment_method: "guardada:tj_abcdefghijklmnop",
    });
    expect(saved.success && saved.data.payment).toEqual({
      method: "card",
      savedCardId: "tj_abcdefghijklmnop",
      saveCard: false,
    });
    const saving = topupSchema({ savedLines: [], askEmail: false }).safeParse({
      ...base,
      payment_method: "card",
      save_card: "on",
    });
    expect(saving.success && saving.data.payment.saveCard).toBe(true);
    const unknown = topupSchema({ savedLines: [], askEmail: false }).safeParse({
      ...base,
      payment_method: "bitcoin",
    });
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues[0]).toMatchObject({
      path: ["payment_method"],
      message: "topup:errors.paymentMethodRequired",
    });
  });

  it("takes an optional e-mail for the receipt only from a customer without an account", () => {
    const base = {
      phone_number: "5512345678",
      phone_number_confirm: "5512345678",
      amount: "100",
      idempotency_key: KEY,
    };
    const guest = topupSchema({ savedLines: [], askEmail: true });
    expect(guest.safeParse(base).data?.email).toBeNull();
    expect(guest.safeParse({ ...base, email: "  " }).data?.email).toBeNull();
    expect(guest.safeParse({ ...base, email: " ana@example.com " }).data?.email).toBe(
      "ana@example.com",
    );
    const wrong = guest.safeParse({ ...base, email: "ana@" });
    expect(wrong.error?.issues).toEqual([
      expect.objectContaining({ path: ["email"], message: "topup:errors.emailInvalid" }),
    ]);
    const signedIn = topupSchema({ savedLines: [], askEmail: false });
    expect(signedIn.safeParse({ ...base, email: "ana@" }).data?.email).toBeNull();
  });
});
