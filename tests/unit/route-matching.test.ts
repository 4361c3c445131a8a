import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

// The server loads React Router's CommonJS build; patches/@remix-run+router+*.patch memoises its
// route ranking and path compilation there (decision 0073).
const require = createRequire(import.meta.url);
const { matchRoutes } = require("@remix-run/router") as typeof import("@remix-run/router");

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
  it("runs with the memoising patch applied (npm install's postinstall)", () => {
    const source = require("node:fs").readFileSync(require.resolve("@remix-run/router"), "utf8");
    expect(source).toContain("rankedBranchesCache");
    expect(source).toContain("compiledPathCache");
    expect(source).toContain("branchMayMatch");
  });

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

type RouteObject =
  | { id: string; path?: string; index: true }
  | { id: string; path?: string; index?: false; children: RouteObject[] };

/** The app's own route table, nested as Remix nests it (the flat-routes files under app/routes). */
function appRoutes(): RouteObject[] {
  const { flatRoutes } = require("@remix-run/dev/dist/config/flat-routes.js") as {
    flatRoutes: (
      appDirectory: string,
    ) => Record<string, { id: string; path?: string; index?: boolean; parentId?: string }>;
  };
  const manifest = Object.values(flatRoutes(path.resolve("app")));
  const childrenOf = (parentId: string): RouteObject[] =>
    manifest
      .filter((route) => route.parentId === parentId)
      .map((route) =>
        route.index
          ? { id: route.id, path: route.path, index: true }
          : { id: route.id, path: route.path, children: childrenOf(route.id) },
      );
  return [{ id: "root", path: "", children: childrenOf("root") }];
}

/** Addresses a customer, a crawler or an attacker may ask for, built from every route's path. */
function addressesOf(routes: RouteObject[], parent = ""): string[] {
  const addresses: string[] = [];
  for (const route of routes) {
    const own = [parent, route.path ?? ""].filter(Boolean).join("/");
    const withParameters = own.replace(/:\w+\??/g, "PED-2026-000123");
    const filled = withParameters.replace(/\*/g, "algo/mas");
    addresses.push(`/${filled}`, `/${filled}/`, `/${filled.toUpperCase()}`, `/${filled}/extra`);
    addresses.push(`/${filled}//doble`, `/${filled.replace(/[^/]+$/, "")}`);
    // A splat may be empty: "docs/*" matches "/docs" itself.
    addresses.push(`/${withParameters.replace(/\/?\*/g, "")}`);
    if (!route.index) addresses.push(...addressesOf(route.children, own));
  }
  return addresses.concat(["/", "//", "/%C3%B1", "/pedido/%20", "/my-account/lineas/5512345678/x"]);
}

async function unpatchedRouter() {
  const routerDirectory = path.dirname(require.resolve("@remix-run/router"));
  const unpatchedFile = path.join(routerDirectory, "router.js");
  expect(String(require("node:fs").readFileSync(unpatchedFile))).not.toContain("branchMayMatch");
  return (await import(
    /* @vite-ignore */ pathToFileURL(unpatchedFile).href
  )) as typeof import("@remix-run/router");
}

async function expectReactRoutersOwnMatches(table: RouteObject[]) {
  const unpatched = await unpatchedRouter();
  const described = (matches: ReturnType<typeof matchRoutes>) =>
    matches?.map((match) => [match.route.id, match.params, match.pathname, match.pathnameBase]);
  const addresses = addressesOf(table);
  for (const address of addresses) {
    expect(described(matchRoutes(table, address)), address).toEqual(
      described(unpatched.matchRoutes(table, address)),
    );
  }
  return addresses.length;
}

describe("route matching skips a branch whose whole path cannot match", () => {
  it("gives React Router's own matches (its unpatched build) for every address of the app's routes", async () => {
    expect(await expectReactRoutersOwnMatches(appRoutes())).toBeGreaterThan(250);
  });

  it("gives React Router's own matches under a splat parent and with optional segments", async () => {
    // What Remix's flat routes make of docs.$.tsx, docs.$._index.tsx and docs.$.edit.tsx.
    const table: RouteObject[] = [
      {
        id: "root",
        path: "",
        children: [
          {
            id: "docs.$",
            path: "docs/*",
            children: [
              { id: "docs.$._index", index: true },
              { id: "docs.$.edit", path: "edit", children: [] },
            ],
          },
          { id: "($lang).ayuda", path: ":lang?/ayuda", children: [] },
          { id: "files.$id", path: "files/:id", children: [] },
        ],
      },
    ];
    expect(await expectReactRoutersOwnMatches(table)).toBeGreaterThan(30);
  });
});
