import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { getFixedT } from "~/i18n/i18n.server";
import {
  findPoints,
  isPointService,
  type PointOfService,
  type PostalMatch,
} from "./points-of-service";
import { POINTS_SEARCH_FIELDS, pointsSearchSchema, toPointsQuery } from "./points-search";
import type { RequestContext } from "~/context";

export interface PointsSearchAnswer {
  result: SubmissionResult<string[]>;
  /** Null when the search was refused (its message is next to its field). */
  points: PointOfService[] | null;
  match: PostalMatch | null;
  by: "postal-code" | "state" | null;
}

/**
 * /puntos-de-atencion: the operator's points of service (read at start from its file), and the
 * search the address asks for (`?cp=…` or `?estado=…`, `&servicio=…`). A search that cannot be
 * read is a 400 with its message next to its field; one that finds nothing, a 200 that says so.
 */
export function loadPointsPage(context: RequestContext, url: URL) {
  const { points, sample } = context.config.pointsOfService;
  const t = getFixedT("registration");
  // A postal code or a state makes it a search; a service alone (the registration's link) only
  // chooses the service in the form.
  const searched = POINTS_SEARCH_FIELDS.some((field) => url.searchParams.has(field));
  const service = url.searchParams.get("servicio");
  let search: PointsSearchAnswer | null = null;
  if (searched) {
    const submission = parseWithZod(url.searchParams, { schema: pointsSearchSchema });
    if (submission.status !== "success") {
      search = { result: submission.reply(), points: null, match: null, by: null };
    } else {
      const query = toPointsQuery(submission.value);
      const found = findPoints(points, query);
      search = { result: submission.reply(), ...found, by: query.kind };
    }
  }
  return data(
    {
      title: t("places.title"),
      description: t("places.description"),
      sample,
      search,
      presetService: !searched && isPointService(service) ? service : null,
    },
    { status: search && search.points === null ? 400 : 200 },
  );
}
