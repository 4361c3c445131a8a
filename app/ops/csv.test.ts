import { describe, expect, it } from "vitest";
import { neutraliseCell, toCsv } from "./csv";

describe("CSV export", () => {
  it("starts with a UTF-8 BOM and ends every record with CRLF", () => {
    const text = toCsv(["Folio", "Cliente"], [["PED-2026-000001", "Ana López"]]);
    expect(text).toBe("\uFEFFFolio,Cliente\r\nPED-2026-000001,Ana López\r\n");
    expect(Buffer.from(text, "utf8").subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it("quotes fields with commas and quotes (RFC 4180)", () => {
    expect(toCsv(["a"], [["Av. Insurgentes, 1234"], ['Dijo "hola"']])).toBe(
      '\uFEFFa\r\n"Av. Insurgentes, 1234"\r\n"Dijo ""hola"""\r\n',
    );
  });

  it("writes a line break, an escape sequence or a bidi override in a cell as a visible escape", () => {
    expect(toCsv(["a"], [["dos\r\nlíneas"], ["\u001B[31mrojo\u0007"], ["\u202Eevil.exe"]])).toBe(
      "\uFEFFa\r\ndos\\u000D\\u000Alíneas\r\n\\u001B[31mrojo\\u0007\r\n\\u202Eevil.exe\r\n",
    );
  });

  it("writes numbers as numbers and missing values as empty fields", () => {
    expect(toCsv(["Total", "Guía", "Nada"], [[1299, null, undefined]])).toBe(
      "\uFEFFTotal,Guía,Nada\r\n1299,,\r\n",
    );
  });

  it.each(['=HYPERLINK("http://x")', "+52 55", "-2+3", "@SUM(A1)"])(
    "neutralises a cell a spreadsheet would run: %j",
    (value) => {
      expect(neutraliseCell(value)).toBe(`'${value}`);
      expect(toCsv(["x"], [[value]]).split("\r\n")[1]).toMatch(/^"?'/);
    },
  );

  it("never starts a cell with a tab or a carriage return: they are escapes", () => {
    expect(neutraliseCell("\tx")).toBe("\\u0009x");
    expect(neutraliseCell("\r=1+1")).toBe("\\u000D=1+1");
  });

  it("leaves ordinary text and numbers alone", () => {
    expect(neutraliseCell("Ana = Beto")).toBe("Ana = Beto");
    expect(neutraliseCell("5512345678")).toBe("5512345678");
    expect(toCsv(["n"], [[-5]])).toBe("\uFEFFn\r\n-5\r\n");
  });
});
