import type { LoaderFunctionArgs, ServerBuild } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { BUILD_VERSION_HEADER, pageUrlOf } from "./data-requests";
import { withNewBuildDocumentLoads } from "./new-build.server";
import type { RequestContext } from "~/context";
import { requestContext, routerContextFor } from "./router-context.server";

const rootLoader = vi.fn(() => ({ shell: true }));
const build = {
  assets: { version: "b2" },
  entry: { module: { requestContext } },
  routes: {
    root: { id: "root", path: "", module: { loader: rootLoader, default: () => null } },
    "routes/plans": { id: "routes/plans", parentId: "root", path: "plans", module: {} },
  },
} as unknown as ServerBuild;

function argsFor(url: string, headers: Record<string, string> = {}): LoaderFunctionArgs {
  const context = { logger: { info: vi.fn() }, requestId: "r1" } as unknown as RequestContext;
  return {
    request: new Request(url, { headers }),
    url: pageUrlOf(url),
    pattern: pageUrlOf(url).pathname,
    params: {},
    context: routerContextFor(requestContext, context),
  };
}

const rootOf = (wrapped: ServerBuild) =>
  wrapped.routes.root!.module.loader as (args: LoaderFunctionArgs) => unknown;

describe("a navigation from a page of another build", () => {
  it("is answered with a full page load of the address it asked for", async () => {
    const loader = rootOf(withNewBuildDocumentLoads(build));
    let thrown: unknown;
    try {
      await loader(
        argsFor("https://tienda.example/help-center.data?q=sim&_routes=root,routes/help", {
          [BUILD_VERSION_HEADER]: "b1",
        }),
      );
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Response);
    const response = thrown as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/help-center?q=sim");
    expect(response.headers.get("X-Remix-Reload-Document")).toBe("true");
    expect(rootLoader).not.toHaveBeenCalled();
  });

  it("of the same build, or a document request (no version), runs the loader as before", async () => {
    const loader = rootOf(withNewBuildDocumentLoads(build));
    expect(
      await loader(argsFor("https://tienda.example/plans", { [BUILD_VERSION_HEADER]: "b2" })),
    ).toEqual({ shell: true });
    expect(await loader(argsFor("https://tienda.example/plans"))).toEqual({ shell: true });
    expect(rootLoader).toHaveBeenCalledTimes(2);
  });

  it("leaves the other routes as they were", () => {
    const wrapped = withNewBuildDocumentLoads(build);
    expect(wrapped.routes["routes/plans"]).toBe(build.routes["routes/plans"]);
    expect(wrapped.assets).toBe(build.assets);
  });
});
