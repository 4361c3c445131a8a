import { describe, expect, it } from "vitest";
import { InvalidUsage } from "~/line/line";
import { parseCount, parseDataAmount, recordLineUsage, usageRefusal } from "./line-usage.server";

describe("the amounts of `npm run ops -- consumo`", () => {
  it.each([
    ["500MB", 500],
    ["500 mb", 500],
    ["500", 500],
    ["1.5GB", 1536],
    ["1,5 GB", 1536],
    ["2gb", 2048],
    ["-500MB", -500],
    ["0.5MB", 0.5],
  ])("reads data %s as %d MB", (text, megabytes) => {
    expect(parseDataAmount(text)).toBe(megabytes);
  });

  it.each(["", "mucho", "500KB", "5 0MB", "1e3MB", "Infinity"])("reads %j as no amount", (text) => {
    expect(parseDataAmount(text)).toBeNaN();
  });

  it("reads whole counts, and anything else as no number", () => {
    expect(parseCount("12")).toBe(12);
    expect(parseCount("-3")).toBe(-3);
    expect(parseCount("2.5")).toBe(2.5);
    expect(parseCount("1e9")).toBeNaN();
    expect(parseCount("diez")).toBeNaN();
  });

  it("explains each refusal in Spanish, naming the option", () => {
    expect(usageRefusal(new InvalidUsage("dataMb", "negative"))).toBe(
      "--datos no puede ser negativo: el consumo solo se suma.",
    );
    expect(usageRefusal(new InvalidUsage("minutes", "not-whole"))).toBe(
      "--minutos debe ser un número entero de minutos.",
    );
    expect(usageRefusal(new InvalidUsage("sms", "too-large"))).toMatch(
      /^--sms: es demasiado para un día \(máximo 10,000 mensajes al día/,
    );
    expect(usageRefusal(new InvalidUsage(null, "empty"))).toMatch(/^Indica qué consumió/);
  });

  it("is refused without the simulator (a real BSS hears usage from the network)", async () => {
    expect(await recordLineUsage(null, { number: "5599000001", datos: "1MB" })).toEqual({
      ok: false,
      message: expect.stringMatching(/^consumo solo funciona con el BSS simulado/),
    });
  });
});
