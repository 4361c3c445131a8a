// What the metrics and the log's redaction add to each request, log line and query (decisions 0110,
// 0112), measured apart from the rest of the server: `npx tsx scripts/bench-instrumentation.ts`
// after `npm run build` (it reads the build's routes). Each case runs in rounds; the fastest round
// is reported, as the one least disturbed by other work on the machine.
import { Writable } from "node:stream";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { sql } from "kysely";
import { pino } from "pino";
import { openDatabase } from "../app/db/db.server";
import { createMetrics } from "../app/observability/metrics.server";
import { logRedaction } from "../server/logging";
import { routeLabeller } from "../server/metrics";

const ROUNDS = 9;

type Run = (iterations: number) => unknown;

async function timed(run: Run, iterations: number): Promise<number> {
  const started = process.hrtime.bigint();
  await run(iterations);
  return Number(process.hrtime.bigint() - started) / iterations;
}

async function nsPerOperation(run: Run, iterations: number) {
  return (await compare(run, run, iterations))[0];
}

/**
 * The fastest round of each of two runs, their rounds taken in turn, so that a busy moment of the
 * machine weighs on both alike.
 */
async function compare(first: Run, second: Run, iterations: number): Promise<[number, number]> {
  await first(Math.ceil(iterations / 10)); // warm-up
  await second(Math.ceil(iterations / 10));
  let bestFirst = Number.POSITIVE_INFINITY;
  let bestSecond = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    bestFirst = Math.min(bestFirst, await timed(first, iterations));
    bestSecond = Math.min(bestSecond, await timed(second, iterations));
  }
  return [bestFirst, bestSecond];
}

function report(name: string, ns: number) {
  console.log(
    `${name.padEnd(64)} ${ns >= 1000 ? `${(ns / 1000).toFixed(2)} µs` : `${ns.toFixed(0)} ns`}`,
  );
}

const build = (await import(
  pathToFileURL(path.resolve("build/server/index.js")).href
)) as ServerBuild;

// Per request: the route label (a path seen before), the histogram, a page-cache look-up.
const metrics = createMetrics();
const labelOf = routeLabeller(build.routes);
const paths = ["/", "/plans", "/help-center", "/auth/sign-in", "/cart"];
for (const each of paths) labelOf(each);
const perRequest = await nsPerOperation((iterations) => {
  for (let index = 0; index < iterations; index++) {
    const route = labelOf(paths[index % paths.length]!);
    metrics.pageCacheLookup("anyone", true);
    metrics.observeRequest(route, "GET", 200, 0.0004);
  }
}, 500_000);
report("per request: label (seen path) + page-cache count + histogram", perRequest);

// A path not seen before, of a shape seen before (another receipt): no match, a shape's look-up.
let unseen = 0;
labelOf("/recarga/first");
const perNewPath = await nsPerOperation((iterations) => {
  for (let index = 0; index < iterations; index++) labelOf(`/recarga/${unseen++}`);
}, 50_000);
report("per request to a new path of a known shape (a receipt)", perNewPath);

// A shape never seen: the router matches the path against every route (rare: shapes are few).
// Paths of the routes' literal segments in new orders make new shapes.
const literals = [
  ...new Set(
    Object.values(build.routes).flatMap((route) =>
      (route?.path ?? "").split("/").filter((segment) => /^[a-z-]+$/.test(segment)),
    ),
  ),
];
const newShapes: string[] = [];
for (const first of literals) {
  for (const second of literals) {
    for (const third of literals) newShapes.push(`/${first}/${second}/${third}/zz`);
  }
}
let shapeIndex = 0;
const perNewShape = await nsPerOperation(
  (iterations) => {
    for (let index = 0; index < iterations; index++) labelOf(newShapes[shapeIndex++]!);
  },
  Math.floor(newShapes.length / (2 * ROUNDS + 1)),
);
report("per request of a new shape (the router's match)", perNewShape);

// Per log line: the request log's line through pino, with and without the redaction.
const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
const requestLine = {
  msg: "request",
  requestId: "6f1c1f9e-2a53-4c55-9d0a-0d1c6f3a1b2c",
  method: "GET",
  path: "/plans",
  status: 200,
  durationMs: 0.412,
};
const plain = pino({ level: "info" }, sink);
const redacted = pino({ level: "info", ...logRedaction }, sink);
const [logPlain, logRedacted] = await compare(
  (iterations) => {
    for (let index = 0; index < iterations; index++) plain.info(requestLine);
  },
  (iterations) => {
    for (let index = 0; index < iterations; index++) redacted.info(requestLine);
  },
  200_000,
);
report("request log line, pino alone", logPlain);
report("request log line, pino with the redaction", logRedacted);
report("  the redaction's share", logRedacted - logPlain);

// Per query: a trivial SQLite select, with and without the counting dialect.
const bare = await openDatabase({ dataDir: null });
const counted = await openDatabase({ dataDir: null, onTimeout: () => undefined });
const query = (db: typeof bare) => async (iterations: number) => {
  for (let index = 0; index < iterations; index++) await sql`select 1`.execute(db);
};
const [queryBare, queryCounted] = await compare(query(bare), query(counted), 50_000);
report("SQLite select 1, Kysely", queryBare);
report("SQLite select 1, Kysely through the counting dialect", queryCounted);
report("  the counting dialect's share", queryCounted - queryBare);
await bare.destroy();
await counted.destroy();
