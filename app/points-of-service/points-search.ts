import * as z from "zod";
import { MEXICAN_STATES } from "~/lib/mexican-states";
import "~/lib/zod-without-eval";
import { POINT_SERVICES, POSTAL_CODE, type PointsQuery } from "./points-of-service";

/**
 * The search of /puntos-de-atencion, a plain GET form: a postal code or a state, and optionally a
 * service. Messages are keys of the "registration" namespace, shown next to their field.
 */
const message = (key: string) => ({ error: `registration:places.errors.${key}` });

/** An empty field is no choice. */
const blankToUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

export const pointsSearchSchema = z
  .object({
    cp: z.preprocess(
      blankToUndefined,
      z
        .string(message("postalCode"))
        .transform((value) => value.replace(/\s/g, ""))
        .pipe(z.string().regex(POSTAL_CODE, message("postalCode")))
        .optional(),
    ),
    estado: z.preprocess(blankToUndefined, z.enum(MEXICAN_STATES, message("state")).optional()),
    servicio: z.preprocess(blankToUndefined, z.enum(POINT_SERVICES, message("service")).optional()),
  })
  .superRefine((value, context) => {
    if (value.cp === undefined && value.estado === undefined) {
      context.addIssue({ code: "custom", path: ["cp"], message: message("nothing").error });
    }
  });

export type PointsSearch = z.infer<typeof pointsSearchSchema>;

/** The fields that make the address a search (the service alone only filters one). */
export const POINTS_SEARCH_FIELDS = ["cp", "estado"] as const;

/** The search as a query: the postal code when given (it is the nearer answer), else the state. */
export function toPointsQuery(search: PointsSearch): PointsQuery {
  return search.cp !== undefined
    ? { kind: "postal-code", postalCode: search.cp, service: search.servicio }
    : { kind: "state", state: search.estado!, service: search.servicio };
}
