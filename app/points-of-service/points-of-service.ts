import * as z from "zod";
import { withoutControlCharacters } from "~/lib/control-characters";
import { MEXICAN_STATES, type MexicanState } from "~/lib/mexican-states";
import "~/lib/zod-without-eval";

/**
 * The operator's points of service (issue 48, decision 0140): where a customer registers a line in
 * person, replaces a SIM or moves a number. The list is the operator's data, a JSON file
 * (`POINTS_OF_SERVICE_FILE`; the sample in content/puntos-de-atencion.json by default), checked
 * here when the server starts: a bad file stops it with one line naming the point and the field.
 */

/** What a point can do for a customer; the page's filter and each point's list name these. */
export const POINT_SERVICES = [
  "registro-de-linea",
  "reposicion-de-sim",
  "portabilidad",
  "venta-de-sim",
] as const;
export type PointService = (typeof POINT_SERVICES)[number];

export function isPointService(value: unknown): value is PointService {
  return (POINT_SERVICES as readonly unknown[]).includes(value);
}

/** A Mexican postal code: five digits. */
export const POSTAL_CODE = /^\d{5}$/;

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, "no puede estar vacío")
    .max(max, `a lo más ${max} caracteres`)
    .check(withoutControlCharacters({ error: "sin caracteres de control" }));

const pointSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,59}$/, "minúsculas, dígitos y guiones (a lo más 60)"),
  nombre: text(120),
  direccion: text(240),
  estado: z.enum(MEXICAN_STATES, {
    error: "la clave ISO de uno de los 32 estados (CMX, JAL, NLE…)",
  }),
  codigoPostal: z.string().regex(POSTAL_CODE, "un código postal de 5 dígitos"),
  horario: text(160),
  servicios: z
    .array(z.enum(POINT_SERVICES, { error: `uno de ${POINT_SERVICES.join(", ")}` }))
    .min(1, "al menos un servicio"),
});

/** The file: its points, and `ejemplo: true` while it is the sample the store ships. */
export const pointsFileSchema = z.object({
  ejemplo: z.boolean().optional(),
  puntos: z.array(pointSchema).min(1, "al menos un punto de atención"),
});

export interface PointOfService {
  id: string;
  name: string;
  address: string;
  state: MexicanState;
  postalCode: string;
  hours: string;
  services: readonly PointService[];
}

export interface PointsDirectory {
  points: readonly PointOfService[];
  /** The sample shipped with the store, not the operator's data: the page says so. */
  sample: boolean;
}

/** A file that is not a list of points of service; its message names where and what. */
export class PointsFileError extends Error {}

/**
 * The file's contents (parsed JSON) as the directory, or a `PointsFileError` whose message names
 * the file, the point (by its id, or its position) and the field at fault.
 */
export function parsePointsFile(json: unknown, source: string): PointsDirectory {
  const parsed = pointsFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const [list, index, ...field] = issue.path;
    let where = issue.path.join(".") || "el archivo";
    if (list === "puntos" && typeof index === "number") {
      const raw = (json as { puntos: Array<{ id?: unknown }> }).puntos[index];
      const id = typeof raw?.id === "string" ? ` (${raw.id})` : "";
      where = `punto ${index + 1}${id}${field.length ? `, ${field.join(".")}` : ""}`;
    }
    throw new PointsFileError(`Puntos de atención en ${source}: ${where}: ${issue.message}`);
  }
  const seen = new Set<string>();
  for (const point of parsed.data.puntos) {
    if (seen.has(point.id)) {
      throw new PointsFileError(
        `Puntos de atención en ${source}: el id "${point.id}" está repetido`,
      );
    }
    seen.add(point.id);
  }
  return {
    sample: parsed.data.ejemplo === true,
    points: parsed.data.puntos.map((point) => ({
      id: point.id,
      name: point.nombre,
      address: point.direccion,
      state: point.estado,
      postalCode: point.codigoPostal,
      hours: point.horario,
      services: point.servicios,
    })),
  };
}

/** How the points found relate to the postal code asked for. */
export type PostalMatch =
  /** They share at least its first two digits (in Mexico, the same state or zone). */
  | "zone"
  /** None does: the points whose postal codes are numerically closest. */
  | "closest";

/** How many points a search by postal code shows at most. */
export const MAX_POSTAL_RESULTS = 5;

function sharedPrefix(a: string, b: string): number {
  let length = 0;
  while (length < a.length && a[length] === b[length]) length++;
  return length;
}

export type PointsQuery =
  | { kind: "postal-code"; postalCode: string; service?: PointService }
  | { kind: "state"; state: MexicanState; service?: PointService };

export interface PointsFound {
  points: PointOfService[];
  /** By postal code: whether they are in its zone or only the closest; null by state. */
  match: PostalMatch | null;
}

/**
 * The points for a search, offering the service when one is asked for. By state: every point of
 * the state, by postal code. By postal code: "nearest" by the postal code's digits — the points
 * sharing the longest prefix with it (at least the first two digits), then the closest numbers;
 * when none shares two digits, the closest numbers. Postal codes are not distances: a point in
 * the next zone may be nearer on the map, which the page says.
 */
export function findPoints(points: readonly PointOfService[], query: PointsQuery): PointsFound {
  const offering = query.service
    ? points.filter((point) => point.services.includes(query.service!))
    : [...points];
  if (query.kind === "state") {
    return {
      points: offering
        .filter((point) => point.state === query.state)
        .sort((a, b) => a.postalCode.localeCompare(b.postalCode) || a.name.localeCompare(b.name)),
      match: null,
    };
  }
  const target = Number(query.postalCode);
  const ranked = offering
    .map((point) => ({
      point,
      prefix: sharedPrefix(point.postalCode, query.postalCode),
      distance: Math.abs(Number(point.postalCode) - target),
    }))
    .sort(
      (a, b) =>
        b.prefix - a.prefix || a.distance - b.distance || a.point.id.localeCompare(b.point.id),
    );
  const inZone = ranked.filter((entry) => entry.prefix >= 2);
  if (inZone.length > 0) {
    return {
      points: inZone.slice(0, MAX_POSTAL_RESULTS).map((entry) => entry.point),
      match: "zone",
    };
  }
  return {
    points: ranked
      .sort((a, b) => a.distance - b.distance || a.point.id.localeCompare(b.point.id))
      .slice(0, MAX_POSTAL_RESULTS)
      .map((entry) => entry.point),
    match: ranked.length > 0 ? "closest" : null,
  };
}
