import { describe, expect, it } from "vitest";
import { luhnCheckDigit } from "~/lib/luhn";
import {
  assertIssueRequest,
  EsimProvisioningUnavailable,
  formatActivationCode,
  isEsimProvisioningUnavailable,
  isSmdpAddress,
  isWellFormedIccid,
  parseActivationCode,
} from "./provisioning";

describe("parseActivationCode (SGP.22 §4.1)", () => {
  it("reads the three mandatory fields, with or without the QR code's LPA: prefix", () => {
    const expected = {
      smdpAddress: "SMDP.GSMA.COM",
      matchingId: "04386-AGYFT-A74Y8-3F815",
      smdpOid: null,
      confirmationCodeRequired: false,
    };
    expect(parseActivationCode("LPA:1$SMDP.GSMA.COM$04386-AGYFT-A74Y8-3F815")).toEqual(expected);
    expect(parseActivationCode("1$SMDP.GSMA.COM$04386-AGYFT-A74Y8-3F815")).toEqual(expected);
  });

  it("reads the optional SM-DP+ OID and confirmation code required flag", () => {
    expect(parseActivationCode("LPA:1$smdp.example.com$ABC-123$1.3.6.1.4.1.31746$1")).toMatchObject(
      { smdpOid: "1.3.6.1.4.1.31746", confirmationCodeRequired: true },
    );
    expect(parseActivationCode("LPA:1$smdp.example.com$ABC-123$1.3.6.1.4.1.31746")).toMatchObject({
      smdpOid: "1.3.6.1.4.1.31746",
      confirmationCodeRequired: false,
    });
    // The flag without an OID leaves the OID field empty.
    expect(parseActivationCode("LPA:1$smdp.example.com$ABC-123$$1")).toMatchObject({
      smdpOid: null,
      confirmationCodeRequired: true,
    });
  });

  it.each([
    ["empty", ""],
    ["the prefix alone", "LPA:"],
    ["another format", "LPA:2$smdp.example.com$ABC"],
    ["a lower-case prefix", "lpa:1$smdp.example.com$ABC"],
    ["no matching ID field", "LPA:1$smdp.example.com"],
    ["an empty matching ID", "LPA:1$smdp.example.com$"],
    ["an empty matching ID before an OID", "LPA:1$smdp.example.com$$1.3.6.1"],
    ["a lower-case matching ID", "LPA:1$smdp.example.com$abc-123"],
    ["a matching ID with other characters", "LPA:1$smdp.example.com$ABC_123"],
    ["a matching ID with a space", "LPA:1$smdp.example.com$ABC 123"],
    ["an empty address", "LPA:1$$ABC"],
    ["an address with a scheme", "LPA:1$https://smdp.example.com$ABC"],
    ["an address with a port", "LPA:1$smdp.example.com:443$ABC"],
    ["an address with a path", "LPA:1$smdp.example.com/x$ABC"],
    ["a single-label address", "LPA:1$localhost$ABC"],
    ["an IP address", "LPA:1$192.168.0.1$ABC"],
    ["an address with a trailing dot", "LPA:1$smdp.example.com.$ABC"],
    ["an address label starting with a hyphen", "LPA:1$-smdp.example.com$ABC"],
    ["an OID that is not dotted decimal", "LPA:1$smdp.example.com$ABC$1.3.x"],
    ["a flag other than 1", "LPA:1$smdp.example.com$ABC$$0"],
    ["an empty trailing OID field", "LPA:1$smdp.example.com$ABC$"],
    ["later versions' extra fields", "LPA:1$smdp.example.com$ABC$$1$KEYID"],
    ["surrounding whitespace", " LPA:1$smdp.example.com$ABC"],
    ["a trailing newline", "LPA:1$smdp.example.com$ABC\n"],
    ["a very long matching ID", `LPA:1$smdp.example.com$${"A".repeat(256)}`],
    ["a very long code", `LPA:1$smdp.example.com$ABC$1.${"2.".repeat(600)}3`],
  ])("refuses %s", (_what, code) => {
    expect(parseActivationCode(code)).toBeNull();
  });

  it("refuses a value that is not a string", () => {
    expect(parseActivationCode(undefined as unknown as string)).toBeNull();
  });
});

describe("formatActivationCode", () => {
  it("writes the QR code's content, which reads back", () => {
    const code = formatActivationCode("sandbox.smdp.invalid", "0123456789ABCDEF");
    expect(code).toBe("LPA:1$sandbox.smdp.invalid$0123456789ABCDEF");
    expect(parseActivationCode(code)).toMatchObject({
      smdpAddress: "sandbox.smdp.invalid",
      matchingId: "0123456789ABCDEF",
    });
  });

  it("refuses parts that would change the code's meaning", () => {
    expect(() => formatActivationCode("evil.example$X", "ABC")).toThrow(TypeError);
    expect(() => formatActivationCode("smdp.example.com", "ABC$1.2.3")).toThrow(TypeError);
    expect(() => formatActivationCode("smdp.example.com", "abc")).toThrow(TypeError);
    expect(() => formatActivationCode("smdp.example.com", "")).toThrow(TypeError);
  });
});

describe("isSmdpAddress", () => {
  it("accepts host names in either case", () => {
    expect(isSmdpAddress("SMDP.GSMA.COM")).toBe(true);
    expect(isSmdpAddress("rsp-1.smdp.example.mx")).toBe(true);
    expect(isSmdpAddress("sandbox.smdp.invalid")).toBe(true);
  });

  it("refuses over-long names and labels", () => {
    expect(isSmdpAddress(`${"a".repeat(64)}.example.com`)).toBe(false);
    expect(isSmdpAddress(`${"a.".repeat(126)}com`)).toBe(false);
  });
});

describe("isWellFormedIccid", () => {
  const body = "895200000000000001";

  it("accepts 19 and 20 digits starting 89 with a Luhn check digit", () => {
    const nineteen = `${body}${luhnCheckDigit(body)}`;
    const twenty = `${body}7${luhnCheckDigit(`${body}7`)}`;
    expect(isWellFormedIccid(nineteen)).toBe(true);
    expect(isWellFormedIccid(twenty)).toBe(true);
  });

  it("refuses a wrong check digit, another prefix, other lengths and padding", () => {
    const good = `${body}${luhnCheckDigit(body)}`;
    expect(isWellFormedIccid(good.slice(0, -1) + ((Number(good.at(-1)) + 1) % 10))).toBe(false);
    expect(isWellFormedIccid(`1${good.slice(1)}`)).toBe(false);
    expect(isWellFormedIccid(good.slice(0, 18))).toBe(false);
    expect(isWellFormedIccid(`${good}F`)).toBe(false);
  });
});

describe("EsimProvisioningUnavailable", () => {
  it("is recognised by name, also as a copy from another bundle", () => {
    const error = new EsimProvisioningUnavailable("x", { reason: "timeout" });
    expect(error.name).toBe("EsimProvisioningUnavailable");
    expect(isEsimProvisioningUnavailable(error)).toBe(true);
    const copy = Object.assign(new Error("x"), { name: "EsimProvisioningUnavailable" });
    expect(isEsimProvisioningUnavailable(copy)).toBe(true);
    expect(isEsimProvisioningUnavailable(new Error("x"))).toBe(false);
    expect(isEsimProvisioningUnavailable({ name: "EsimProvisioningUnavailable" })).toBe(false);
  });
});

describe("assertIssueRequest", () => {
  it("refuses an empty order reference and positions that are not small whole numbers", () => {
    expect(() => assertIssueRequest({ orderRef: "", position: 0, generation: 0 })).toThrow(
      TypeError,
    );
    expect(() => assertIssueRequest({ orderRef: "A1", position: -1, generation: 0 })).toThrow(
      TypeError,
    );
    expect(() => assertIssueRequest({ orderRef: "A1", position: 1.5, generation: 0 })).toThrow(
      TypeError,
    );
    expect(() =>
      assertIssueRequest({ orderRef: "A1", position: Number.NaN, generation: 0 }),
    ).toThrow(TypeError);
    expect(() => assertIssueRequest({ orderRef: "A1", position: 0, generation: -1 })).toThrow(
      TypeError,
    );
    expect(() => assertIssueRequest({ orderRef: "A1", position: 0, generation: 0 })).not.toThrow();
  });
});
