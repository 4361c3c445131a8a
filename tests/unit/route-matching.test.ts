import { matchRoutes } from "react-router";
import { describe, expect, it } from "vitest";

// React Router (since 7.15) keeps a route table's ranked branches and compiled paths between
// matches (decision 0132): what Remix's router needed a patch for (decision 0129, superseded).
const routes = [
  {
    id: "root",
    path: "",
    children: [
      { id: "routes/_index", index: true },
      { id: "routes/plans", path: "plans" },
      { id: "routes/orders.$folio", path: "pedido/:folio" },
      { id: "routes/$", path: "*" },
    ],
  },
];

const matchedIds = (pathname: string) =>
  matchRoutes(routes, pathname)?.map((match) => match.route.id) ?? null;

describe("route matching on the server", () => {
  it("gives the same matches when the same route table is matched again and again", () => {
    for (let round = 0; round < 3; round += 1) {
      expect(matchedIds("/")).toEqual(["root", "routes/_index"]);
      expect(matchedIds("/plans")).toEqual(["root", "routes/plans"]);
      expect(matchedIds("/pedido/PED-2026-000123")).toEqual(["root", "routes/orders.$folio"]);
      expect(matchRoutes(routes, "/pedido/PED-1")?.[1]?.params).toEqual({ folio: "PED-1" });
      expect(matchedIds("/no-existe/aqui")).toEqual(["root", "routes/$"]);
    }
  });

  it("ranks a new route table of its own rather than reusing another's", () => {
    expect(matchedIds("/plans")).toEqual(["root", "routes/plans"]);
    const other = [{ id: "other", path: "/plans/:id" }];
    expect(matchRoutes(other, "/plans")).toBeNull();
    expect(matchRoutes(other, "/plans/ilimitado")?.[0]?.params).toEqual({ id: "ilimitado" });
  });
});
