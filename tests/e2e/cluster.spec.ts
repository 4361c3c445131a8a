import { expect, test } from "@playwright/test";
import { ORDER_LOOKUP_LIMITS } from "../../app/checkout/order-lookup";
import { productionTestEnvironment } from "../../scripts/server-command.mjs";
import { rawRequest } from "../support/raw-http";
import { freePort, startServer, stopServer, waitForHealth } from "../support/server-process";

// WEB_CONCURRENCY (decision 0075): the server process itself, so one project runs it.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "process checks run once");

/**
 * One request on a connection of its own, so that consecutive requests land on both workers; by
 * the site's public name, as a browser would send it (another name's write is refused, decision 0103).
 */
async function send(port: number, path: string, form?: Record<string, string>) {
  const answer = await rawRequest(port, {
    path,
    form,
    ownConnection: true,
    headers: { Host: `localhost:${port}` },
  });
  return {
    status: answer.status,
    requestId: String(answer.headers["x-request-id"]),
    text: answer.body,
  };
}

test("two workers enforce one rate limit: the order lookups of one folio are counted together", async () => {
  test.setTimeout(60_000);
  const port = freePort(test.info().workerIndex);
  const baseUrl = `http://localhost:${port}`;
  const server = startServer({
    NODE_ENV: "production",
    PORT: String(port),
    SESSION_SECRET: "cluster-test-secret-0123456789-abcdefghijkl",
    WEB_CONCURRENCY: "2",
    ...productionTestEnvironment(baseUrl),
  });
  try {
    await waitForHealth(baseUrl, server);
    // Both workers up: each answers /healthz with its number.
    await expect
      .poll(async () => {
        const seen = new Set<number>();
        for (let probe = 0; probe < 4; probe++) {
          const health = JSON.parse((await send(port, "/healthz")).text) as {
            worker?: number;
          };
          if (health.worker) seen.add(health.worker);
        }
        return seen.size;
      })
      .toBe(2);

    const limit = ORDER_LOOKUP_LIMITS.perFolioAndClient.limit;
    const answers = [];
    for (let attempt = 0; attempt < limit + 2; attempt++) {
      answers.push(
        await send(port, "/pedido", {
          folio: "PED-2025-000123",
          correo: "nadie@example.com",
        }),
      );
    }
    // The same answer up to the limit (no such order: nothing sent), then refused, whichever
    // worker answered.
    expect(answers.map((answer) => answer.status)).toEqual([...Array(limit).fill(200), 429, 429]);

    // The log says which worker answered each request: both did, within the limit, so a
    // per-process counter (at most about half the attempts each) would never have refused.
    const workerOf = new Map<string, number>();
    for (const line of server.output.join("").split("\n")) {
      if (!line.includes('"msg":"request"')) continue;
      const entry = JSON.parse(line) as { requestId: string; worker: number };
      workerOf.set(entry.requestId, entry.worker);
    }
    const workers = answers.slice(0, limit).map((answer) => workerOf.get(answer.requestId));
    expect(new Set(workers)).toEqual(new Set([1, 2]));
    for (const worker of [1, 2]) {
      expect(workers.filter((each) => each === worker).length).toBeLessThan(limit);
    }
  } finally {
    await stopServer(server);
  }
  expect(await server.exited).toBe(0);
  const output = server.output.join("");
  expect(output).toContain('"worker":0,"msg":"cluster started"');
  expect(output).toContain('"worker":1,"msg":"stopped"');
  expect(output).toContain('"worker":2,"msg":"stopped"');
});
