import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  BUILD_VERSION_HEADER,
  RETRY_PAUSE_MS,
  isRetried,
  pagePathOf,
  pageUrlOf,
  siteFetch,
} from "./data-requests";

const ORIGIN = "https://www.conecta.example";

/** A fetch that answers each call with the next status, recording what it was asked. */
function answering(...statuses: number[]) {
  const requests: Request[] = [];
  const impl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    const status = statuses[Math.min(requests.length - 1, statuses.length - 1)];
    return new Response(status === 204 ? null : `answer ${requests.length}`, { status });
  });
  return { impl: impl as unknown as typeof fetch, requests };
}

const fetchWith = (impl: typeof fetch) => siteFetch(impl, { origin: ORIGIN, buildVersion: "b1" });

describe("which answers are tried again (spec §7)", () => {
  it.each([408, 409, 425, 429, 500, 502, 503, 504])("a read answered %i is retried", (status) => {
    expect(isRetried("GET", status)).toBe(true);
    expect(isRetried("HEAD", status)).toBe(true);
  });

  it.each(["POST", "PUT", "PATCH", "DELETE"])("a %s never is, whatever the answer", (method) => {
    for (const status of [408, 409, 425, 429, 500, 502, 503, 504]) {
      expect(isRetried(method, status)).toBe(false);
    }
  });

  it.each([400, 401, 403, 404, 410, 413, 422, 501, 505, 599])(
    "%i is an answer, not a passing failure",
    (status) => {
      expect(isRetried("GET", status)).toBe(false);
    },
  );
});

describe("the site's fetch", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends a navigation's data request once more after a 503, after a pause, and returns the second answer", async () => {
    const { impl, requests } = answering(503, 200);
    const answer = fetchWith(impl)(new URL(`${ORIGIN}/plans.data`));
    await vi.advanceTimersByTimeAsync(RETRY_PAUSE_MS - 1);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const response = await answer;
    expect(requests).toHaveLength(2);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("answer 2");
  });

  it("tries once more only: a second failure is the answer (the error boundary shows it)", async () => {
    const { impl, requests } = answering(502, 504, 200);
    const answer = fetchWith(impl)(`${ORIGIN}/_.data`, { method: "GET" });
    await vi.runAllTimersAsync();
    expect((await answer).status).toBe(504);
    expect(requests).toHaveLength(2);
  });

  it("never repeats a write", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const { impl, requests } = answering(503, 200);
      const response = await fetchWith(impl)(`${ORIGIN}/cart.data`, { method, body: "a=1" });
      expect(response.status, method).toBe(503);
      expect(requests, method).toHaveLength(1);
    }
  });

  it("does not repeat an answer that is not a passing failure", async () => {
    for (const status of [200, 204, 404, 403, 400]) {
      const { impl, requests } = answering(status, 200);
      const response = await fetchWith(impl)(`${ORIGIN}/plans.data`);
      expect(response.status).toBe(status);
      expect(requests).toHaveLength(1);
    }
  });

  it("names the page's build on its data requests only, and leaves other sites alone", async () => {
    const { impl, requests } = answering(200);
    const site = fetchWith(impl);
    await site(`${ORIGIN}/plans.data?_routes=root`);
    await site(`${ORIGIN}/locales/es/common.json`);
    await site(`${ORIGIN}/cart.data`, { method: "POST", body: "intent=clear" });
    await site("https://other.example/x.data");
    expect(requests.map((request) => request.headers.get(BUILD_VERSION_HEADER))).toEqual([
      "b1",
      null,
      null,
      null,
    ]);
  });

  it("retries a failed read of another of the site's files, never another site's", async () => {
    const site = answering(503, 200);
    expect((await runToEnd(fetchWith(site.impl)(`${ORIGIN}/locales/es/line.json`))).status).toBe(
      200,
    );
    const other = answering(503, 200);
    expect((await fetchWith(other.impl)("https://other.example/x")).status).toBe(503);
    expect(other.requests).toHaveLength(1);
  });

  it("gives up waiting when the navigation is abandoned during the pause", async () => {
    const { impl, requests } = answering(503, 200);
    const controller = new AbortController();
    const answer = fetchWith(impl)(`${ORIGIN}/plans.data`, { signal: controller.signal });
    const settled = answer.then(
      () => "answered",
      (error: unknown) => (error as Error).name,
    );
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    expect(await settled).toBe("AbortError");
    await vi.runAllTimersAsync();
    expect(requests).toHaveLength(1);
  });
});

async function runToEnd(answer: Promise<Response>) {
  await vi.runAllTimersAsync();
  return answer;
}

describe("the page a request is for", () => {
  it("reads a data request's path as React Router does", () => {
    expect(pagePathOf("/plans.data")).toBe("/plans");
    expect(pagePathOf("/_.data")).toBe("/");
    expect(pagePathOf("/help-center/_.data")).toBe("/help-center/");
    expect(pagePathOf("/my-account/lineas/5512345678.data")).toBe("/my-account/lineas/5512345678");
    expect(pagePathOf("/plans")).toBe("/plans");
  });

  it("keeps the page's query and drops the routes React Router asked for", () => {
    const page = pageUrlOf(
      "https://tienda.example/help-center.data?q=sim&_routes=root,routes/help",
    );
    expect(`${page.pathname}${page.search}`).toBe("/help-center?q=sim");
    expect(pageUrlOf("https://tienda.example/_.data?_routes=root").pathname).toBe("/");
    expect(pageUrlOf("https://tienda.example/recarga?monto=100").search).toBe("?monto=100");
  });
});
