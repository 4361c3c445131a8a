import { describe, expect, it } from "vitest";
import { CURRENCY_SUFFIX, formatCount, formatPrice, formatTotal } from "./money";

const nbsp = "\u00a0";

describe("formatPrice", () => {
  it("writes whole pesos without centavos", () => {
    expect(formatPrice(199)).toBe("$199");
    expect(formatPrice(50)).toBe("$50");
    expect(formatPrice(0)).toBe("$0");
  });

  it("groups thousands with a comma", () => {
    expect(formatPrice(2399)).toBe("$2,399");
    expect(formatPrice(1234567)).toBe("$1,234,567");
  });

  it("shows centavos only when there are some, always two digits", () => {
    expect(formatPrice(1234.5)).toBe("$1,234.50");
    expect(formatPrice(99.99)).toBe("$99.99");
  });

  it("rounds to the centavo, so floating-point noise never shows", () => {
    expect(formatPrice(0.1 + 0.2)).toBe("$0.30");
    expect(formatPrice(199.999)).toBe("$200");
  });
});

describe("formatTotal", () => {
  it("always writes centavos and the currency code after a no-break space", () => {
    expect(formatTotal(1234.5)).toBe(`$1,234.50${nbsp}MXN`);
    expect(formatTotal(500)).toBe(`$500.00${nbsp}MXN`);
    expect(formatTotal(0)).toBe(`$0.00${nbsp}MXN`);
    expect(CURRENCY_SUFFIX).toBe(`${nbsp}MXN`);
  });

  it("never contains a breaking space", () => {
    expect(formatTotal(2399)).not.toMatch(/ /);
    expect(formatPrice(2399)).not.toMatch(/\s/);
  });
});

// What Intl itself writes: the formatter is written by hand (decision 0128) and must not differ.
const intlWholePesos = new Intl.NumberFormat("es-MX", {
  style: "currency",
  currency: "MXN",
  maximumFractionDigits: 0,
});
const intlCentavos = new Intl.NumberFormat("es-MX", {
  style: "currency",
  currency: "MXN",
  minimumFractionDigits: 2,
});
const intlCount = new Intl.NumberFormat("es-MX");

describe("written without Intl, the same text as Intl", () => {
  it("writes every price from -$2,500 to $25,000 (37-centavo steps) as Intl does", () => {
    for (let cents = -250_000; cents <= 2_500_000; cents += 37) {
      const amount = cents / 100;
      const expected = cents % 100 === 0 ? intlWholePesos : intlCentavos;
      expect(formatPrice(amount)).toBe(expected.format(amount));
      expect(formatTotal(amount)).toBe(`${intlCentavos.format(amount)}${CURRENCY_SUFFIX}`);
    }
  });

  it("writes large amounts as Intl does", () => {
    for (const amount of [999_999.99, 1_000_000, 12_345_678.9, 987_654_321]) {
      expect(formatTotal(amount)).toBe(`${intlCentavos.format(amount)}${CURRENCY_SUFFIX}`);
    }
  });

  it("writes counts of every magnitude, negatives and fractions as Intl does", () => {
    const values = [0, 1, 7, 12, 999, 1000, 1001, 5000, 9999, 10_000, 123_456, 1_000_000];
    for (let power = 0; power <= 15; power += 1) values.push(10 ** power, 10 ** power - 1);
    values.push(0.5, 1.25, 2.0005, 1.0005, 1.0045, 3.14159, 1234.5678, 1234.5675, 0.0004, 0.0005);
    values.push(999.9995, 1.0049, 1e15 + 0.125, 9_007_199_254.7405);
    for (const value of values) {
      expect(formatCount(value)).toBe(intlCount.format(value));
      if (value !== 0) expect(formatCount(-value)).toBe(intlCount.format(-value));
    }
  });
});

describe("the one money formatter", () => {
  it("is the only code in app/ that writes a currency", async () => {
    const { readdirSync, readFileSync, statSync } = await import("node:fs");
    const path = await import("node:path");
    const root = path.resolve(__dirname, "..");
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) {
          const source = readFileSync(full, "utf8");
          if (full.endsWith(path.join("catalog", "money.ts"))) continue;
          if (/style:\s*["']currency["']|\.toFixed\(2\)/.test(source)) offenders.push(full);
        }
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
