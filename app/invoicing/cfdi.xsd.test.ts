import { readFileSync } from "node:fs";
import path from "node:path";
import { validateXML } from "xmllint-wasm";
import { describe, expect, it } from "vitest";
import { buildCfdi, cfdiXml, type CfdiRequest } from "./cfdi";
import { SANDBOX_LEGEND, sandboxUuid } from "./sandbox-pac.server";
import { SAMPLE } from "../../tests/support/cfdi-sample";

/**
 * The sandbox's CFDI validated with libxml2 (xmllint-wasm) against SAT's cfdv40.xsd and tdCFDI.xsd
 * and a reduced stand-in of its catCFDI.xsd (tests/fixtures/cfdi-xsd/README.md says what is SAT's
 * and what is not), with the schema of the sandbox's own addenda.
 */
const SCHEMAS = path.resolve(__dirname, "../../tests/fixtures/cfdi-xsd");
const file = (name: string) => ({
  fileName: name,
  contents: readFileSync(path.join(SCHEMAS, name), "utf8"),
});
const PRELOAD = [
  "cfd/4/cfdv40.xsd",
  "cfd/catalogos/catCFDI.xsd",
  "cfd/tipoDatos/tdCFDI/tdCFDI.xsd",
  "conecta/prueba.xsd",
].map(file);
/** One schema for both namespaces: SAT's CFDI and the sandbox's addenda. */
const WRAPPER = `<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:import namespace="http://www.sat.gob.mx/cfd/4" schemaLocation="cfd/4/cfdv40.xsd"/>
  <xs:import namespace="https://www.conectamovil.mx/cfdi/prueba/1" schemaLocation="conecta/prueba.xsd"/>
</xs:schema>`;

async function validate(xml: string) {
  const result = await validateXML({
    xml: [{ fileName: "factura.xml", contents: xml }],
    schema: [{ fileName: "cfdi.xsd", contents: WRAPPER }],
    preload: PRELOAD,
  });
  return { valid: result.valid, errors: result.errors.map((error) => error.message) };
}

const sandboxXml = (request: CfdiRequest) =>
  cfdiXml(buildCfdi(request), { uuid: sandboxUuid("key-1"), legend: SANDBOX_LEGEND });

describe("the sandbox's CFDI against SAT's schema", () => {
  it("is valid: a persona física paying by card, several concepts", async () => {
    expect(await validate(sandboxXml(SAMPLE))).toEqual({ valid: true, errors: [] });
  });

  it("is valid: a persona moral paying by SPEI, a name with characters to escape", async () => {
    const xml = sandboxXml({
      ...SAMPLE,
      formaPago: "03",
      receiver: {
        rfc: "A&B010101AB1",
        name: "Ñandú & Asociados <Norte>",
        regimen: "601",
        postalCode: "64000",
        uso: "I06",
      },
      items: [{ sku: "recarga-500", description: "Recarga «500»", quantity: 1, unitPrice: 500 }],
    });
    expect(await validate(xml)).toEqual({ valid: true, errors: [] });
  });

  it("fails when it breaks the schema (the check can fail)", async () => {
    const valid = sandboxXml(SAMPLE);
    const withoutTotal = valid.replace(/ Total="[^"]+"/, "");
    expect((await validate(withoutTotal)).valid).toBe(false);
    const unknownUse = valid.replace('UsoCFDI="G03"', 'UsoCFDI="P01"');
    expect((await validate(unknownUse)).valid).toBe(false);
    const sevenDecimals = valid.replace(/ValorUnitario="(\d+\.\d+)"/, 'ValorUnitario="$11"');
    expect((await validate(sevenDecimals)).valid).toBe(false);
  });
}, 60_000);
