import smpp from "smpp";
import { describe, expect, it } from "vitest";
import { measureSms } from "./encoding";

const PRINTABLE_ASCII = Array.from({ length: 0x7f - 0x20 }, (_, i) =>
  String.fromCharCode(0x20 + i),
);

describe("the encoding of an SMS", () => {
  it("sends as data_coding 0 only characters whose byte is the same in GSM 03.38, ASCII and Latin-1", () => {
    const sentAsDefault = [...PRINTABLE_ASCII, "\n", "\r"].filter(
      (character) => measureSms(character).encoding === "gsm7",
    );
    // The proof: for each of them the byte we send (its ASCII code) is the byte the GSM 03.38
    // table (the package's "ASCII" encoder) and Latin-1 give, so the text arrives intact whatever
    // the SMSC takes its default alphabet to be.
    for (const character of sentAsDefault) {
      const ascii = Buffer.from(character, "ascii");
      expect(smpp.encodings.ASCII.encode(character), character).toEqual(ascii);
      expect(smpp.encodings.LATIN1.encode(character), character).toEqual(ascii);
      expect(smpp.encodings.ASCII.decode(ascii), character).toBe(character);
    }
    expect(sentAsDefault.join("")).toBe(
      " !\"#%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz\n\r",
    );
  });

  it("sends everything else as UCS2: the ASCII signs GSM codes differently, and every accent", () => {
    for (const character of ["$", "@", "_", "[", "]", "{", "}", "\\", "^", "~", "|", "`"]) {
      expect(measureSms(`Saldo ${character}50`).encoding, character).toBe("ucs2");
      // Why: in GSM 03.38 they are not their ASCII byte (or need an escape).
      expect(smpp.encodings.ASCII.encode(character), character).not.toEqual(
        Buffer.from(character, "ascii"),
      );
    }
    for (const text of ["Información", "ñandú", "¿Dudas?", "¡Listo!", "Pingüino", "€"]) {
      expect(measureSms(text).encoding, text).toBe("ucs2");
    }
  });

  it("measures one SMS: 160 characters in data_coding 0, 70 UTF-16 units in UCS2", () => {
    expect(measureSms("a".repeat(160))).toMatchObject({ length: 160, limit: 160, fits: true });
    expect(measureSms("a".repeat(161))).toMatchObject({ length: 161, fits: false });
    expect(measureSms("ó".repeat(70))).toMatchObject({ encoding: "ucs2", limit: 70, fits: true });
    expect(measureSms("ó".repeat(71)).fits).toBe(false);
    // An emoji is two UTF-16 units.
    expect(measureSms("🙂".repeat(35)).fits).toBe(true);
    expect(measureSms("🙂".repeat(36)).fits).toBe(false);
  });

  it("counts a decomposed accent as one character", () => {
    const decomposed = "co\u0301digo";
    expect(measureSms(decomposed)).toMatchObject({ text: "código", length: 6 });
  });
});
