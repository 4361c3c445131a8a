import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SAMPLE } from "../../tests/support/cfdi-sample";
import { amountOfNumber, buildCfdi, centsOf, cfdiXml, satVerificationUrl } from "./cfdi";
import { CONCEPT_KEYS, IVA } from "./sat-catalogs";
import { SANDBOX_LEGEND } from "./sandbox-pac.server";

/**
 * The CFDI the store builds, against CFDI 4.0's rules (Anexo 20 and its Guía de llenado): the
 * namespaces and required attributes, SAT's catalogue keys, and the arithmetic SAT's validation
 * checks: Importe = Cantidad × ValorUnitario, each concept's IVA = Base × TasaOCuota (rounded per
 * concept), the comprobante's IVA the sum of the concepts', Total = SubTotal − Descuento +
 * impuestos trasladados. The XML's validity against SAT's schema is cfdi.xsd.test.ts's.
 */

const micros = (amount: string) => {
  const [whole, fraction = ""] = amount.split(".");
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
};
const roundHalfUp = (value: bigint, unit: bigint) => ((value * 2n + unit) / (2n * unit)) * unit;

describe("the CFDI 4.0 the store builds", () => {
  it("is an income invoice paid in one exhibition, in pesos, not an export", () => {
    const cfdi = buildCfdi(SAMPLE);
    expect(cfdi).toMatchObject({
      version: "4.0",
      serie: "FAC",
      folio: "2026-000001",
      tipoDeComprobante: "I",
      metodoPago: "PUE",
      formaPago: "04",
      moneda: "MXN",
      exportacion: "01",
      lugarExpedicion: "42501",
      // Mexico City's wall clock (UTC−6), to the second.
      fecha: "2026-11-27T12:05:09",
    });
  });

  it("writes the parties' names in capitals, as the Constancia de Situación Fiscal does", () => {
    const cfdi = buildCfdi(SAMPLE);
    expect(cfdi.emisor).toEqual({
      rfc: "EKU9003173C9",
      name: "ESCUELA KEMPER URGATE",
      regimen: "601",
    });
    expect(cfdi.receptor.name).toBe("XOCHILT CASAS CHAVEZ");
    expect(
      buildCfdi({ ...SAMPLE, receiver: { ...SAMPLE.receiver, name: "Ñandú Pérez" } }).receptor.name,
    ).toBe("ÑANDÚ PÉREZ");
  });

  it("gives every concept SAT's keys for mobile telephone service, object of IVA at 16 %", () => {
    for (const concepto of buildCfdi(SAMPLE).conceptos) {
      expect(concepto).toMatchObject({
        claveProdServ: "83111603",
        claveUnidad: "E48",
        unidad: "Unidad de servicio",
        objetoImp: "02",
      });
    }
    expect(CONCEPT_KEYS.claveProdServ).toMatch(/^\d{8}$/);
    expect(IVA).toMatchObject({ impuesto: "002", tipoFactor: "Tasa", tasaOCuota: "0.160000" });
  });

  it("breaks the IVA out of prices that include it: $199 is 171.551724 plus 27.448276", () => {
    const cfdi = buildCfdi({ ...SAMPLE, items: [{ ...SAMPLE.items[0], quantity: 1 }] });
    expect(cfdi.conceptos[0]).toMatchObject({
      valorUnitario: "171.551724",
      importe: "171.551724",
      traslado: { base: "171.551724", importe: "27.448276" },
    });
    expect(cfdi).toMatchObject({
      subTotal: "171.55",
      total: "199.00",
      impuestos: {
        totalImpuestosTrasladados: "27.45",
        traslado: { base: "171.55", importe: "27.45" },
      },
    });
  });

  it("rounds the IVA per concept, and the comprobante's is the sum of the concepts' rounded to cents", () => {
    const cfdi = buildCfdi(SAMPLE);
    const [plans, topup] = cfdi.conceptos;
    expect(plans.traslado.importe).toBe("54.896552"); // 343.103448 × 0.16 = 54.89655168
    expect(topup.traslado.importe).toBe("13.793104"); // 86.206897 × 0.16 = 13.79310352
    // 68.689656 → 68.69; not SubTotal × 0.16 (429.31 × 0.16 = 68.6896 → 68.69 here, but the rule is the sum).
    expect(cfdi.impuestos.totalImpuestosTrasladados).toBe("68.69");
    expect(cfdi.total).toBe("498.00");
  });

  const sale = fc.array(
    fc.record({
      sku: fc.constant("x"),
      description: fc.constant("Plan"),
      quantity: fc.integer({ min: 1, max: 10 }),
      unitPrice: fc.integer({ min: 1, max: 5_000 }),
    }),
    { minLength: 1, maxLength: 6 },
  );

  it("keeps SAT's arithmetic for any sale, and its Total is exactly what was paid", () => {
    fc.assert(
      fc.property(sale, (items) => {
        const cfdi = buildCfdi({ ...SAMPLE, items });
        let importes = 0n;
        let ivas = 0n;
        cfdi.conceptos.forEach((concepto, index) => {
          const cantidad = BigInt(concepto.cantidad);
          expect(cantidad).toBe(BigInt(items[index].quantity));
          // Importe = Cantidad × ValorUnitario, exactly (six decimals both).
          expect(micros(concepto.importe)).toBe(cantidad * micros(concepto.valorUnitario));
          // Base = Importe; IVA = Base × 0.16 rounded half up to six decimals, per concept.
          expect(concepto.traslado.base).toBe(concepto.importe);
          const exact = micros(concepto.traslado.base) * 16n;
          expect(micros(concepto.traslado.importe)).toBe((exact * 2n + 100n) / 200n);
          // ValorUnitario is the price without IVA: × 1.16 gives the price back to the cent.
          expect(roundHalfUp((micros(concepto.valorUnitario) * 116n) / 100n, 10_000n)).toBe(
            BigInt(items[index].unitPrice) * 1_000_000n,
          );
          importes += micros(concepto.importe);
          ivas += micros(concepto.traslado.importe);
        });
        // SubTotal and the IVA: the sums, to the peso's two decimals.
        expect(micros(cfdi.subTotal)).toBe(roundHalfUp(importes, 10_000n));
        expect(micros(cfdi.impuestos.totalImpuestosTrasladados)).toBe(roundHalfUp(ivas, 10_000n));
        expect(cfdi.impuestos.traslado).toEqual({
          base: cfdi.subTotal,
          importe: cfdi.impuestos.totalImpuestosTrasladados,
        });
        // Total = SubTotal − Descuento (none) + impuestos trasladados (no retenciones).
        expect(centsOf(cfdi.total)).toBe(
          centsOf(cfdi.subTotal) - 0n + centsOf(cfdi.impuestos.totalImpuestosTrasladados),
        );
        // … and it is what the customer paid.
        const paid = items.reduce((sum, item) => sum + item.quantity * item.unitPrice, 0);
        expect(cfdi.total).toBe(`${paid}.00`);
        // Two decimals at the comprobante's level, up to six in the concepts.
        expect(cfdi.subTotal).toMatch(/^\d+\.\d{2}$/);
        expect(cfdi.total).toMatch(/^\d+\.\d{2}$/);
      }),
      { numRuns: 500 },
    );
  });

  it("refuses what no sale is", () => {
    expect(() => buildCfdi({ ...SAMPLE, items: [] })).toThrow(RangeError);
    expect(() => buildCfdi({ ...SAMPLE, items: [{ ...SAMPLE.items[0], quantity: 0 }] })).toThrow(
      RangeError,
    );
    expect(() =>
      buildCfdi({ ...SAMPLE, items: [{ ...SAMPLE.items[0], unitPrice: 10.5 }] }),
    ).toThrow(RangeError);
  });
});

describe("the sandbox's XML", () => {
  const xml = cfdiXml(buildCfdi(SAMPLE), {
    uuid: "3C8F1D2A-1B2C-4D5E-8F90-123456789ABC",
    legend: SANDBOX_LEGEND,
  });

  it("declares CFDI 4.0's namespace and schema", () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('xmlns:cfdi="http://www.sat.gob.mx/cfd/4"');
    expect(xml).toContain(
      'xsi:schemaLocation="http://www.sat.gob.mx/cfd/4 http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd"',
    );
  });

  it("carries every attribute CFDI 4.0 requires of the comprobante, the parties and the concepts", () => {
    const root = /<cfdi:Comprobante[^>]*>/.exec(xml)![0];
    for (const attribute of [
      "Version",
      "Fecha",
      "Sello",
      "NoCertificado",
      "Certificado",
      "SubTotal",
      "Moneda",
      "Total",
      "TipoDeComprobante",
      "Exportacion",
      "LugarExpedicion",
      "MetodoPago",
      "FormaPago",
    ]) {
      expect(root).toContain(` ${attribute}="`);
    }
    expect(xml).toMatch(/<cfdi:Emisor Rfc="[^"]+" Nombre="[^"]+" RegimenFiscal="\d{3}"\/>/);
    expect(xml).toMatch(
      /<cfdi:Receptor Rfc="[^"]+" Nombre="[^"]+" DomicilioFiscalReceptor="\d{5}" RegimenFiscalReceptor="\d{3}" UsoCFDI="\w+"\/>/,
    );
    expect(xml.match(/<cfdi:Concepto /g)).toHaveLength(2);
    expect(xml.match(/ObjetoImp="02"/g)).toHaveLength(2);
  });

  it("says it has no fiscal validity, has no seal and no Timbre Fiscal Digital", () => {
    expect(xml).toContain(`<!-- ${SANDBOX_LEGEND} -->`);
    expect(xml).toContain("<prueba:SinValidezFiscal");
    expect(xml).toContain('Sello=""');
    expect(xml).toContain('NoCertificado="00000000000000000000"');
    expect(xml).not.toContain("TimbreFiscalDigital");
  });

  it("escapes what the customer typed", () => {
    const escaped = cfdiXml(
      buildCfdi({ ...SAMPLE, receiver: { ...SAMPLE.receiver, name: 'Ana & "Hijos" <SA>' } }),
      { uuid: "3C8F1D2A-1B2C-4D5E-8F90-123456789ABC", legend: SANDBOX_LEGEND },
    );
    expect(escaped).toContain('Nombre="ANA &amp; &quot;HIJOS&quot; &lt;SA&gt;"');
  });
});

describe("SAT's verification address", () => {
  it("carries the UUID, both RFCs, the total without insignificant zeros and the seal's last 8 characters", () => {
    expect(
      satVerificationUrl({
        uuid: "5803EB8D-81CD-4557-8719-26632D2FA434",
        issuerRfc: "EKU9003173C9",
        receiverRfc: "A&B010101AB1",
        total: "1000.50",
        sello: "…abcdefghRH8/bw==",
      }),
    ).toBe(
      "https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=5803EB8D-81CD-4557-8719-26632D2FA434&re=EKU9003173C9&rr=A%26B010101AB1&tt=1000.5&fe=RH8%2Fbw%3D%3D",
    );
    expect(
      satVerificationUrl({
        uuid: "U",
        issuerRfc: "A",
        receiverRfc: "B",
        total: "199.00",
        sello: "",
      }),
    ).toContain("&tt=199.0&fe=");
  });
});

describe("a PAC's total given as a number", () => {
  it("reads as the CFDI's two-decimal amount, a binary fraction rounded to the cent", () => {
    expect(amountOfNumber(118)).toBe("118.00");
    expect(amountOfNumber(118.5)).toBe("118.50");
    expect(amountOfNumber(0.1 + 0.2)).toBe("0.30");
    expect(amountOfNumber(1160.01)).toBe("1160.01");
  });
});
