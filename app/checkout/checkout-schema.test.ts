import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { resources } from "~/i18n/i18n.server";
import { curpCheckDigit } from "~/registration/curp";
import {
  checkoutSchema,
  simTypesForCart,
  withDefaultHolderKind,
  withDefaultSimType,
} from "./checkout-schema";
import { MEXICAN_STATES } from "~/lib/mexican-states";

const HOLDER_CURP = "GOMA850312MDFRRN0" + curpCheckDigit("GOMA850312MDFRRN0");

const valid = {
  sim_type: "physical",
  full_name: "Ana López Hernández",
  email: "ana@example.com",
  phone_number: "5512345678",
  "holder.holder_kind": "fisica",
  "holder.full_name": "Beatriz Gómez Martínez",
  "holder.curp": HOLDER_CURP,
  "holder.identification_type": "ine",
  street: "Av. Insurgentes Sur",
  exterior_number: "1234",
  interior_number: "5B",
  neighborhood: "Del Valle",
  postal_code: "03100",
  municipality: "Benito Juárez",
  state: "CMX",
  accept_terms: "on",
  idempotency_key: "Qm9sYS1kZS1wcnVl.c2lnbmF0dXJhLWRlLXBydQ",
};

/** Submits the form as a browser would (conform turns empty fields into "missing"). */
function submit(overrides: Record<string, string | null>, schema = checkoutSchema()) {
  const formData = new FormData();
  for (const [name, value] of Object.entries({ ...valid, ...overrides })) {
    if (value !== null) formData.set(name, value);
  }
  return parseWithZod(formData, { schema });
}

function errorsOf(
  overrides: Record<string, string | null>,
  field: string,
  schema = checkoutSchema(),
): string[] {
  const submission = submit(overrides, schema);
  if (submission.status !== "error") throw new Error(`expected ${field} to be refused`);
  return submission.error?.[field] ?? [];
}

const messages = resources.commerce as { checkout: { errors: Record<string, string> } };
const expectMessage = (errors: string[], key: string) => {
  expect(errors).toEqual([`commerce:checkout.errors.${key}`]);
  expect(messages.checkout.errors[key], `Spanish text for ${key}`).toBeTruthy();
};

describe("the checkout schema", () => {
  it("accepts a complete Mexican address and keeps the ten phone digits", () => {
    const submission = submit({ phone_number: "(55) 1234-5678" });
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value.phone_number).toBe("5512345678");
    expect(submission.value.sim_type).toBe("physical");
    expect(submission.value.delivery?.state).toBe("CMX");
  });

  it("lets the interior number be left out", () => {
    expect(submit({ interior_number: null }).status).toBe("success");
    expect(submit({ interior_number: "" }).status).toBe("success");
  });

  it("requires a full name of at least three letters", () => {
    expectMessage(errorsOf({ full_name: "" }, "full_name"), "fullNameRequired");
    expectMessage(errorsOf({ full_name: "   " }, "full_name"), "fullNameShort");
    expectMessage(errorsOf({ full_name: "Al" }, "full_name"), "fullNameShort");
    expectMessage(errorsOf({ full_name: "A".repeat(121) }, "full_name"), "tooLong");
  });

  it("requires a valid email", () => {
    expectMessage(errorsOf({ email: "" }, "email"), "emailRequired");
    expectMessage(errorsOf({ email: "ana" }, "email"), "emailInvalid");
    expectMessage(errorsOf({ email: "ana@" }, "email"), "emailInvalid");
    expectMessage(errorsOf({ email: "ana example@x.mx" }, "email"), "emailInvalid");
  });

  it("requires exactly ten phone digits", () => {
    expectMessage(errorsOf({ phone_number: "" }, "phone_number"), "phoneRequired");
    expectMessage(errorsOf({ phone_number: "551234567" }, "phone_number"), "phoneDigits");
    expectMessage(errorsOf({ phone_number: "55123456789" }, "phone_number"), "phoneDigits");
    expectMessage(errorsOf({ phone_number: "+525512345678" }, "phone_number"), "phoneDigits");
    expectMessage(errorsOf({ phone_number: "55l2345678" }, "phone_number"), "phoneDigits");
  });

  it("requires every address line but the interior number", () => {
    expectMessage(errorsOf({ street: "" }, "street"), "streetRequired");
    expectMessage(errorsOf({ exterior_number: "" }, "exterior_number"), "exteriorNumberRequired");
    expectMessage(errorsOf({ neighborhood: "" }, "neighborhood"), "neighborhoodRequired");
    expectMessage(errorsOf({ municipality: "" }, "municipality"), "municipalityRequired");
    expectMessage(errorsOf({ interior_number: "x".repeat(21) }, "interior_number"), "tooLong");
  });

  it("requires a five-digit postal code", () => {
    expectMessage(errorsOf({ postal_code: "" }, "postal_code"), "postalCodeRequired");
    expectMessage(errorsOf({ postal_code: "0310" }, "postal_code"), "postalCodeDigits");
    expectMessage(errorsOf({ postal_code: "031000" }, "postal_code"), "postalCodeDigits");
    expectMessage(errorsOf({ postal_code: "03I00" }, "postal_code"), "postalCodeDigits");
  });

  it("accepts each of the 32 federal entities and nothing else", () => {
    expect(MEXICAN_STATES).toHaveLength(32);
    expect(new Set(MEXICAN_STATES).size).toBe(32);
    for (const state of MEXICAN_STATES) expect(submit({ state }).status).toBe("success");
    expectMessage(errorsOf({ state: "" }, "state"), "stateRequired");
    expectMessage(errorsOf({ state: "TX" }, "state"), "stateRequired");
  });

  it("requires accepting the contract and the privacy notice", () => {
    expectMessage(errorsOf({ accept_terms: null }, "accept_terms"), "acceptTerms");
    expectMessage(errorsOf({ accept_terms: "no" }, "accept_terms"), "acceptTerms");
  });

  it("requires the idempotency key the page issued", () => {
    expectMessage(errorsOf({ idempotency_key: null }, "idempotency_key"), "expired");
    expectMessage(errorsOf({ idempotency_key: "1234" }, "idempotency_key"), "expired");
  });

  it("takes the type the page offers first when the form sends none, and refuses an unknown one", () => {
    const sent = (simTypes: Array<"physical" | "esim">) => {
      const formData = new FormData();
      for (const [name, value] of Object.entries(valid)) {
        if (name !== "sim_type") formData.set(name, value);
      }
      return parseWithZod(withDefaultSimType(formData, simTypes), {
        schema: checkoutSchema(simTypes),
      });
    };
    const physical = sent(["physical", "esim"]);
    expect(physical.status === "success" && physical.value.sim_type).toBe("physical");
    const esimOnly = sent(["esim"]);
    expect(esimOnly.status === "success" && esimOnly.value.sim_type).toBe("esim");
    const none = sent([]);
    expect(none.status === "error" && none.error?.sim_type).toEqual([
      "commerce:checkout.errors.simTypeRequired",
    ]);
    expectMessage(errorsOf({ sim_type: null }, "sim_type"), "simTypeRequired");
    expectMessage(errorsOf({ sim_type: "nano" }, "sim_type"), "simTypeRequired");
  });

  it("needs no address for an eSIM, and ignores one sent anyway", () => {
    const empty = Object.fromEntries(
      ["street", "exterior_number", "neighborhood", "postal_code", "municipality", "state"].map(
        (name) => [name, null],
      ),
    );
    const bare = submit({ sim_type: "esim", ...empty });
    expect(bare.status).toBe("success");
    if (bare.status === "success") expect(bare.value.delivery).toBeNull();
    const leftover = submit({ sim_type: "esim", postal_code: "12" });
    expect(leftover.status).toBe("success");
    if (leftover.status === "success") expect(leftover.value.delivery).toBeNull();
  });

  it("refuses a SIM type the plans in the cart do not come with", () => {
    expectMessage(
      errorsOf({ sim_type: "physical" }, "sim_type", checkoutSchema(["esim"])),
      "simTypeUnavailable",
    );
    expect(submit({ sim_type: "esim" }, checkoutSchema(["esim"])).status).toBe("success");
  });

  it("offers the SIM types every plan of the cart comes with", () => {
    expect(simTypesForCart([["physical", "esim"], ["esim"]])).toEqual(["esim"]);
    expect(simTypesForCart([["physical", "esim"]])).toEqual(["physical", "esim"]);
    expect(simTypesForCart([["physical"], ["esim"]])).toEqual([]);
  });

  it("reports every invalid field of an empty physical-SIM form at once", () => {
    const formData = new FormData();
    formData.set("sim_type", "physical");
    const submission = parseWithZod(formData, { schema: checkoutSchema() });
    if (submission.status !== "error") throw new Error("expected the empty form to be refused");
    expect(Object.keys(submission.error ?? {}).sort()).toEqual(
      [
        "full_name",
        "email",
        "phone_number",
        "holder.holder_kind",
        "street",
        "exterior_number",
        "neighborhood",
        "postal_code",
        "municipality",
        "state",
        "accept_terms",
        "idempotency_key",
      ].sort(),
    );
  });

  it("asks who will hold the lines, with the registration's checks, next to each field", () => {
    const holderErrors = (overrides: Record<string, string | null>, field: string) =>
      errorsOf(overrides, `holder.${field}`);
    expect(holderErrors({ "holder.curp": null }, "curp")).toEqual([
      "registration:errors.curpRequired",
    ]);
    expect(holderErrors({ "holder.curp": "GOMA850312MDFRRN01" }, "curp")).toEqual([
      "registration:errors.curpCheckDigit",
    ]);
    expect(holderErrors({ "holder.full_name": "" }, "full_name")).toEqual([
      "registration:errors.fullNameRequired",
    ]);
    expect(holderErrors({ "holder.identification_type": null }, "identification_type")).toEqual([
      "registration:errors.identificationTypeRequired",
    ]);
    // A company's lines are registered in a store: the checkout offers only people.
    expect(submit({ "holder.holder_kind": "moral" }).status).toBe("error");
    const foreigner = submit({
      "holder.holder_kind": "extranjera",
      "holder.full_name": "John Smith",
      "holder.curp": "",
      "holder.identification_type": null,
      "holder.passport_number": "X1234567",
      "holder.nationality": "US",
    });
    expect(foreigner.status).toBe("success");
    if (foreigner.status !== "success") return;
    expect(foreigner.value.holder).toEqual({
      holder_kind: "extranjera",
      full_name: "John Smith",
      passport_number: "X1234567",
      nationality: "US",
      curp: undefined,
    });
  });

  it("treats a form without the holder's kind as a persona física's", () => {
    const formData = new FormData();
    for (const [name, value] of Object.entries(valid)) formData.set(name, value);
    formData.delete("holder.holder_kind");
    const submission = parseWithZod(withDefaultHolderKind(formData), { schema: checkoutSchema() });
    expect(submission.status).toBe("success");
  });
});

describe("keeping a number (issue 34)", () => {
  /** Every SIM's fields as the page posts them: empty, the box unchecked. */
  const untouched = (sims: number) =>
    Object.fromEntries(
      Array.from({ length: sims }, (_, index) =>
        ["phone_number", "current_carrier", "nip"].map((field) => [`ports[${index}].${field}`, ""]),
      ).flat(),
    );
  const kept = (index: number, values: Partial<Record<string, string>> = {}) => ({
    [`ports[${index}].keep`]: "on",
    [`ports[${index}].phone_number`]: "33 1234 5678",
    [`ports[${index}].current_carrier`]: "telcel",
    [`ports[${index}].nip`]: "4821",
    ...Object.fromEntries(
      Object.entries(values).map(([field, value]) => [`ports[${index}].${field}`, value!]),
    ),
  });
  const portabilityMessages = resources.portability as { errors: Record<string, string> };
  const expectPortabilityMessage = (errors: string[], key: string) => {
    expect(errors).toEqual([`portability:errors.${key}`]);
    expect(portabilityMessages.errors[key], `Spanish text for ${key}`).toBeTruthy();
  };

  it("is opt-in: a form without it, or with every box unchecked, keeps none, whatever the fields hold", () => {
    for (const overrides of [
      {},
      untouched(2),
      { ...untouched(1), "ports[0].phone_number": "12", "ports[0].nip": "x" },
    ]) {
      const submission = submit(overrides);
      expect(submission.status).toBe("success");
      if (submission.status === "success") expect(submission.value.port_ins).toEqual([]);
    }
  });

  it("keeps the number, carrier and NIP of each checked SIM, with its position, the digits normalised", () => {
    const submission = submit(
      {
        ...untouched(3),
        ...kept(1, { phone_number: "(33) 1234-5678" }),
        ...kept(2, { phone_number: "81 2345 6789", current_carrier: "att", nip: " 0001 " }),
      },
      checkoutSchema(undefined, 3),
    );
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value.port_ins).toEqual([
      { position: 1, phone_number: "3312345678", current_carrier: "telcel", nip: "4821" },
      { position: 2, phone_number: "8123456789", current_carrier: "att", nip: "0001" },
    ]);
  });

  it("checks a kept number, carrier and NIP as the portability form does, each message beside its field", () => {
    expectPortabilityMessage(
      errorsOf(kept(0, { phone_number: "" }), "ports[0].phone_number"),
      "phoneRequired",
    );
    expectPortabilityMessage(
      errorsOf(kept(0, { phone_number: "1234567890" }), "ports[0].phone_number"),
      "phoneFormat",
    );
    expectPortabilityMessage(
      errorsOf(kept(0, { phone_number: "55 1234" }), "ports[0].phone_number"),
      "phoneFormat",
    );
    expectPortabilityMessage(
      errorsOf(kept(0, { current_carrier: "" }), "ports[0].current_carrier"),
      "carrierRequired",
    );
    expectPortabilityMessage(
      errorsOf(kept(0, { current_carrier: "verizon" }), "ports[0].current_carrier"),
      "carrierRequired",
    );
    expectPortabilityMessage(errorsOf(kept(0, { nip: "" }), "ports[0].nip"), "nipRequired");
    expectPortabilityMessage(errorsOf(kept(0, { nip: "12345" }), "ports[0].nip"), "nipFormat");
    expectPortabilityMessage(errorsOf(kept(0, { nip: "12a4" }), "ports[0].nip"), "nipFormat");
    // Every wrong field at once, each beside its own; the rest of the form is not refused.
    const submission = submit(kept(0, { phone_number: "1", current_carrier: "", nip: "1" }));
    expect(submission.status).toBe("error");
    const errors = submission.status === "error" ? (submission.error ?? {}) : {};
    expect(Object.keys(errors).sort()).toEqual([
      "ports[0].current_carrier",
      "ports[0].nip",
      "ports[0].phone_number",
    ]);
  });

  it("refuses a box sent with another value than a checkbox's", () => {
    expectMessage(errorsOf({ "ports[0].keep": "yes" }, "ports[0].keep"), "keepNumberInvalid");
  });

  it("refuses the same number kept for two SIMs of the order, beside the second", () => {
    const errors = errorsOf(
      { ...kept(0), ...kept(1, { phone_number: "3312345678" }) },
      "ports[1].phone_number",
      checkoutSchema(undefined, 2),
    );
    expectMessage(errors, "keepNumberRepeated");
  });

  it("refuses a number kept for a SIM the cart no longer has", () => {
    expectMessage(
      errorsOf(kept(1), "ports[1].keep", checkoutSchema(undefined, 1)),
      "keepNumberNoSim",
    );
  });

  it("needs the holder's CURP: a foreigner without a CURP temporal is asked for it", () => {
    const foreigner = {
      "holder.holder_kind": "extranjera",
      "holder.curp": "",
      "holder.passport_number": "G12345678",
      "holder.nationality": "US",
    };
    expect(submit(foreigner).status).toBe("success");
    expectMessage(errorsOf({ ...foreigner, ...kept(0) }, "holder.curp"), "keepNumberNeedsCurp");
    expect(submit({ ...foreigner, ...kept(0), "holder.curp": HOLDER_CURP }).status).toBe("success");
  });
});
