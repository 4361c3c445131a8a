import { describe, expect, it } from "vitest";
import { pointsSearchSchema, toPointsQuery } from "./points-search";

const errorsOf = (params: Record<string, string>) => {
  const parsed = pointsSearchSchema.safeParse(params);
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((issue) => [issue.path[0], issue.message]));
};

describe("the points of service search", () => {
  it("searches by postal code when one is given, else by state; the service filters", () => {
    expect(toPointsQuery(pointsSearchSchema.parse({ cp: " 06 000", estado: "JAL" }))).toEqual({
      kind: "postal-code",
      postalCode: "06000",
      service: undefined,
    });
    expect(
      toPointsQuery(pointsSearchSchema.parse({ cp: "", estado: "JAL", servicio: "portabilidad" })),
    ).toEqual({ kind: "state", state: "JAL", service: "portabilidad" });
  });

  it("says what is wrong next to the field", () => {
    expect(errorsOf({ cp: "", estado: "" })).toEqual({
      cp: "registration:places.errors.nothing",
    });
    expect(errorsOf({ servicio: "registro-de-linea" })).toEqual({
      cp: "registration:places.errors.nothing",
    });
    expect(errorsOf({ cp: "0600" })).toEqual({ cp: "registration:places.errors.postalCode" });
    expect(errorsOf({ estado: "Jalisco" })).toEqual({
      estado: "registration:places.errors.state",
    });
    expect(errorsOf({ cp: "06000", servicio: "lavado" })).toEqual({
      servicio: "registration:places.errors.service",
    });
  });
});
