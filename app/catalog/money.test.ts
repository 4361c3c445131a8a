import { describe, expect, it } from "vitest";
import { CURRENCY_SUFFIX, formatPrice, formatTotal } from "./money";

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
