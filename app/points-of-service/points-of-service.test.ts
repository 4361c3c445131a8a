import { describe, expect, it } from "vitest";
import sample from "../../content/puntos-de-atencion.json";
import {
  findPoints,
  parsePointsFile,
  PointsFileError,
  type PointOfService,
} from "./points-of-service";

const point = (id: string, postalCode: string, extra: Partial<PointOfService> = {}) => ({
  id,
  name: `Punto ${id}`,
  address: "Calle de Muestra 1",
  state: "CMX" as const,
  postalCode,
  hours: "Lunes a viernes de 9:00 a 18:00",
  services: ["registro-de-linea"] as const,
  ...extra,
});

const filePoint = {
  id: "uno",
  nombre: "Conecta Móvil Uno",
  direccion: "Calle de Muestra 1",
  estado: "JAL",
  codigoPostal: "44100",
  horario: "Lunes a viernes de 9:00 a 18:00",
  servicios: ["registro-de-linea", "portabilidad"],
};

function refusal(json: unknown): string {
  try {
    parsePointsFile(json, "puntos.json");
  } catch (error) {
    expect(error).toBeInstanceOf(PointsFileError);
    return (error as Error).message;
  }
  throw new Error("the file was accepted");
}

describe("the points of service file", () => {
  it("reads the sample the store ships: a dozen points in several states, marked as a sample", () => {
    const directory = parsePointsFile(sample, "sample");
    expect(directory.sample).toBe(true);
    expect(directory.points.length).toBeGreaterThanOrEqual(12);
    expect(new Set(directory.points.map((entry) => entry.state)).size).toBeGreaterThanOrEqual(6);
    expect(directory.points.every((entry) => entry.name.includes("(ejemplo)"))).toBe(true);
  });

  it("reads the operator's file, which is no sample", () => {
    const directory = parsePointsFile({ puntos: [filePoint] }, "puntos.json");
    expect(directory).toEqual({
      sample: false,
      points: [
        {
          id: "uno",
          name: "Conecta Móvil Uno",
          address: "Calle de Muestra 1",
          state: "JAL",
          postalCode: "44100",
          hours: "Lunes a viernes de 9:00 a 18:00",
          services: ["registro-de-linea", "portabilidad"],
        },
      ],
    });
  });

  it("refuses a bad file naming the file, the point and the field", () => {
    expect(refusal({ puntos: [{ ...filePoint, estado: "Jalisco" }] })).toBe(
      "Puntos de atención en puntos.json: punto 1 (uno), estado: la clave ISO de uno de los 32 estados (CMX, JAL, NLE…)",
    );
    expect(
      refusal({ puntos: [filePoint, { ...filePoint, id: "dos", codigoPostal: "4410" }] }),
    ).toBe(
      "Puntos de atención en puntos.json: punto 2 (dos), codigoPostal: un código postal de 5 dígitos",
    );
    expect(refusal({ puntos: [{ ...filePoint, servicios: ["lavado"] }] })).toContain(
      "servicios.0: uno de registro-de-linea, reposicion-de-sim, portabilidad, venta-de-sim",
    );
    expect(refusal({ puntos: [{ ...filePoint, servicios: [] }] })).toContain(
      "al menos un servicio",
    );
    expect(refusal({ puntos: [{ ...filePoint, horario: " " }] })).toContain(
      "horario: no puede estar vacío",
    );
    expect(refusal({ puntos: [{ ...filePoint, nombre: "Uno\u001b[31m" }] })).toContain(
      "nombre: sin caracteres de control",
    );
    expect(refusal({ puntos: [] })).toContain("puntos: al menos un punto de atención");
    expect(refusal([])).toContain("Puntos de atención en puntos.json:");
    expect(refusal({ puntos: [filePoint, filePoint] })).toBe(
      'Puntos de atención en puntos.json: el id "uno" está repetido',
    );
  });
});

describe("finding points", () => {
  const points = [
    point("centro", "06000"),
    point("del-valle", "03100", { services: ["reposicion-de-sim"] }),
    point("coyoacan", "04100"),
    point("guadalajara", "44160", { state: "JAL" }),
    point("zapopan", "45116", { state: "JAL" }),
    point("monterrey", "64000", { state: "NLE" }),
  ];
  const ids = (found: { points: PointOfService[] }) => found.points.map((entry) => entry.id);

  it("by postal code: the longest shared prefix first, then the closest number", () => {
    const found = findPoints(points, { kind: "postal-code", postalCode: "04120" });
    expect(found.match).toBe("zone");
    // 041… shares three digits; 06000 and 03100 only "0", so they are not in the zone.
    expect(ids(found)).toEqual(["coyoacan"]);
    expect(ids(findPoints(points, { kind: "postal-code", postalCode: "06700" }))).toEqual([
      "centro",
    ]);
    expect(ids(findPoints(points, { kind: "postal-code", postalCode: "44999" }))).toEqual([
      "guadalajara",
    ]);
  });

  it("by postal code in a zone without a point: the closest postal codes, said so", () => {
    const found = findPoints(points, { kind: "postal-code", postalCode: "47000" });
    expect(found.match).toBe("closest");
    expect(ids(found)).toEqual(["zapopan", "guadalajara", "monterrey", "centro", "coyoacan"]);
  });

  it("by postal code, offering a service", () => {
    const found = findPoints(points, {
      kind: "postal-code",
      postalCode: "03110",
      service: "registro-de-linea",
    });
    expect(found.match).toBe("closest");
    expect(ids(found)[0]).toBe("coyoacan");
    expect(ids(findPoints(points, { kind: "postal-code", postalCode: "03110" }))).toEqual([
      "del-valle",
    ]);
  });

  it("by state: every point of the state by postal code, offering the service", () => {
    expect(ids(findPoints(points, { kind: "state", state: "CMX" }))).toEqual([
      "del-valle",
      "coyoacan",
      "centro",
    ]);
    expect(
      ids(findPoints(points, { kind: "state", state: "CMX", service: "reposicion-de-sim" })),
    ).toEqual(["del-valle"]);
    expect(findPoints(points, { kind: "state", state: "OAX" })).toEqual({
      points: [],
      match: null,
    });
  });

  it("finds nothing when no point offers the service", () => {
    expect(
      findPoints(points, { kind: "postal-code", postalCode: "06000", service: "portabilidad" }),
    ).toEqual({ points: [], match: null });
  });
});
