import { describe, expect, it } from "vitest";
import {
  isRegimenFiscal,
  REGIMENES_FISCALES,
  regimenAllowsKind,
  usoAllowedFor,
  USOS_CFDI,
} from "./sat-catalogs";

describe("SAT's catalogues as the store uses them", () => {
  it("names every régimen once, each held by a persona física, a moral, or both", () => {
    const keys = REGIMENES_FISCALES.map((regimen) => regimen.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const regimen of REGIMENES_FISCALES) expect(regimen.fisica || regimen.moral).toBe(true);
    // c_RegimenFiscal's columns, as SAT publishes them, for the regímenes customers hold most.
    expect(regimenAllowsKind("601", "moral")).toBe(true);
    expect(regimenAllowsKind("601", "fisica")).toBe(false);
    expect(regimenAllowsKind("612", "fisica")).toBe(true);
    expect(regimenAllowsKind("612", "moral")).toBe(false);
    expect(regimenAllowsKind("626", "fisica")).toBe(true);
    expect(regimenAllowsKind("626", "moral")).toBe(true);
    expect(regimenAllowsKind("616", "moral")).toBe(false);
  });

  it("lists for each use only regímenes of the catalogue, and every régimen can take some use", () => {
    for (const uso of USOS_CFDI) {
      for (const regimen of uso.regimenes) expect(isRegimenFiscal(regimen)).toBe(true);
    }
    for (const regimen of REGIMENES_FISCALES) {
      expect(USOS_CFDI.some((uso) => usoAllowedFor(uso.key, regimen.key))).toBe(true);
    }
  });

  it("allows the uses of c_UsoCFDI's column Régimen Fiscal Receptor", () => {
    expect(usoAllowedFor("G03", "601")).toBe(true);
    expect(usoAllowedFor("G03", "605")).toBe(false); // a salaried person deducts no expenses
    expect(usoAllowedFor("D01", "605")).toBe(true);
    expect(usoAllowedFor("D01", "601")).toBe(false); // personal deductions: personas físicas
    expect(usoAllowedFor("S01", "616")).toBe(true);
    expect(usoAllowedFor("G01", "616")).toBe(false);
    expect(usoAllowedFor("I06", "626")).toBe(true);
  });

  it("offers no use an income invoice cannot carry", () => {
    const keys = USOS_CFDI.map((uso) => uso.key as string);
    for (const key of ["G02", "CP01", "CN01", "P01"]) expect(keys).not.toContain(key);
  });
});
