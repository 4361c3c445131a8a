import { data, type LoaderFunction, type ServerBuild } from "react-router";
import { describe, expect, it, vi } from "vitest";
import {
  answeringDatabaseOutage,
  withDatabaseOutagePages,
} from "./database-unavailable-pages.server";
import type { RequestContext } from "~/context";
import { requestContext, routerContextFor } from "~/lib/router-context.server";

function loaderArgs() {
  const warn = vi.fn();
  const context = { logger: { warn }, requestId: "req-1" } as unknown as RequestContext;
  const request = new Request("http://localhost/recarga/x");
  return {
    warn,
    args: {
      request,
      url: new URL(request.url),
      pattern: "/recarga/:id",
      params: {},
      context: routerContextFor(requestContext, context),
    },
  };
}

/** What the wrapped loader threw (it must throw). */
async function thrownBy(loader: LoaderFunction): Promise<unknown> {
  const { args } = loaderArgs();
  try {
    await loader(args);
  } catch (thrown) {
    return thrown;
  }
  throw new Error("the loader did not throw");
}

const refused = () =>
  Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
    code: "ECONNREFUSED",
  });

describe("a page whose loader finds the database unavailable", () => {
  it("answers a 503 route error response with Retry-After, logged with the code only", async () => {
    const { args, warn } = loaderArgs();
    const loader = answeringDatabaseOutage(
      "routes/recarga_.$id",
      () => {
        throw refused();
      },
      requestContext,
    );
    let thrown: unknown = null;
    try {
      await loader(args);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      type: "DataWithResponseInit",
      data: null,
      init: { status: 503, headers: { "Retry-After": "5" } },
    });
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]![0]).toEqual({
      msg: "page not shown: database unavailable",
      requestId: "req-1",
      routeId: "routes/recarga_.$id",
      code: "ECONNREFUSED",
    });
  });

  it.each([
    ["a PostgreSQL shutdown", Object.assign(new Error("terminating"), { code: "57P01" })],
    ["a pool timeout", new Error("timeout exceeded when trying to connect")],
    ["a SQLite lock", Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" })],
  ])("treats %s the same way", async (_name, error) => {
    const thrown = await thrownBy(
      answeringDatabaseOutage("routes/pedido", () => Promise.reject(error), requestContext),
    );
    expect(thrown).toMatchObject({ init: { status: 503 } });
  });

  it("lets a bug, a 404 and a redirect through unchanged", async () => {
    const bug = new TypeError("undefined is not a function");
    expect(
      await thrownBy(answeringDatabaseOutage("r", () => Promise.reject(bug), requestContext)),
    ).toBe(bug);
    const notFound = data(null, { status: 404 });
    expect(
      await thrownBy(
        answeringDatabaseOutage(
          "r",
          () => {
            throw notFound;
          },
          requestContext,
        ),
      ),
    ).toBe(notFound);
    const redirect = new Response(null, { status: 302, headers: { Location: "/" } });
    expect(
      await thrownBy(answeringDatabaseOutage("r", () => Promise.reject(redirect), requestContext)),
    ).toBe(redirect);
  });

  it("returns what the loader returns", async () => {
    const { args, warn } = loaderArgs();
    await expect(
      answeringDatabaseOutage("r", () => ({ ok: true }), requestContext)(args),
    ).resolves.toEqual({
      ok: true,
    });
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("the build served", () => {
  it("wraps every loader, keeps every other export, and leaves the build it was given alone", async () => {
    const pageLoader = () => {
      throw refused();
    };
    const Page = () => null;
    const entry = { module: { requestContext } };
    const build = {
      entry,
      routes: {
        root: { id: "root", path: "", module: { default: Page } },
        "routes/page": {
          id: "routes/page",
          parentId: "root",
          path: "page",
          module: { default: Page, loader: pageLoader, handle: { i18n: ["topup"] } },
        },
      },
    } as unknown as ServerBuild;

    const served = withDatabaseOutagePages(build);

    expect(served.entry).toBe(entry);
    expect(served.routes.root).toBe(build.routes.root);
    const page = served.routes["routes/page"]!;
    expect(page.module.default).toBe(Page);
    expect(page.module.handle).toEqual({ i18n: ["topup"] });
    expect(build.routes["routes/page"]!.module.loader).toBe(pageLoader);
    expect(await thrownBy(page.module.loader!)).toMatchObject({ init: { status: 503 } });
  });
});
