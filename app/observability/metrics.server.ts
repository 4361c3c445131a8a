import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type LabelValues,
} from "prom-client";
import { HotCounter, HotHistogram, type HistogramSeries } from "./hot-metrics.server";

/**
 * Every metric the storefront exposes at `/metrics` (decision 0110), in Prometheus' text format
 * through prom-client. One registry per process; with WEB_CONCURRENCY > 1 the primary adds up its
 * workers' registries (server/metrics.ts). Label values are always names from the code (a route
 * id, a limiter, an outside system and its operation), never anything a request brought: no path,
 * no query, no number, no address.
 *
 * Values read from the database at scrape time (the mail queue, pending payments) are the same in
 * every process on that database: they are read by one process only (the one that runs the
 * sweeps), and the cluster keeps the largest (`aggregator: "max"`), not the sum.
 */

/** The outside systems, each measured at one seam (services.server.ts, auth/cognito.server.ts). */
export type OutsideSystem =
  "identity" | "payments" | "esim" | "bss" | "smtp" | "sms" | "id-validation";

/**
 * How an outside call ended: answered; refused what was asked (a wrong password, an unknown line,
 * a mailbox that does not exist); could not be reached or answered in time; anything else.
 */
export type CallOutcome = "ok" | "refused" | "unavailable" | "error";

/** The HTML caches of server/html-caches.ts. */
export type PageCacheName = "anyone" | "cart-holders" | "render-memo";

export type DatabaseTimeoutKind = "statement" | "lock" | "connection";

export interface DatabasePoolStats {
  engine: "sqlite" | "postgres";
  /** Connections running a query or held by a transaction. */
  inUse: number;
  /** Queries and transactions waiting for a connection. */
  waiting: number;
}

export interface QueueStats {
  pending: number;
  /** Given up for good: failed e-mails, line jobs the BSS refused. */
  failed: number;
  oldestPendingSeconds: number | null;
}

export interface PendingPayments {
  method: string;
  pending: number;
  pastExpiry: number;
}

/** Where the values read at scrape time come from; set once the services exist. */
export interface MetricSources {
  databasePool?: () => DatabasePoolStats | null;
  mailQueue?: () => Promise<QueueStats>;
  lineJobs?: () => Promise<QueueStats>;
  pendingPayments?: () => Promise<PendingPayments[]>;
  /** Each readiness check of /readyz: resolves when its dependency answers. */
  readiness?: () => Promise<Record<string, boolean>>;
  pageCacheBytes?: () => Partial<Record<PageCacheName, number>>;
  /** The SMS codes counted against the store's hourly budget, and the budget (decision 0135). */
  lineCodeBudget?: () => Promise<{ sent: number; budget: number }>;
}

/** Seconds: a page from memory takes well under a millisecond, a rendered one a few. */
const REQUEST_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];
/** Seconds: outside services answer in tens of milliseconds to seconds, and time out later. */
const CALL_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const HTTP_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** A request's method as a label: the usual ones, and "other" for anything a client made up. */
export function methodLabel(method: string): string {
  return HTTP_METHODS.has(method) ? method : "other";
}

/** 2xx, 3xx, 4xx, 5xx. */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : "other";
}

/** A limiter is named by its keys' prefix (`topup-ip:…` → `topup-ip`), a name from the code. */
export function limiterName(key: string): string {
  const name = key.slice(0, key.indexOf(":"));
  return /^[a-z][a-z-]{0,39}$/.test(name) ? name : "other";
}

export interface MetricsOptions {
  /** Node's process metrics (CPU, memory, event loop, GC): the server's, not unit tests'. */
  processMetrics?: boolean;
}

export function createMetrics(options: MetricsOptions = {}) {
  const registry = new Registry();
  const registers = [registry];
  const sources: MetricSources = {};
  if (options.processMetrics) collectDefaultMetrics({ register: registry });

  // What every request records: kept by hand-tuned series (hot-metrics.server.ts).
  const requestDuration = new HotHistogram(
    registry,
    "storefront_http_request_duration_seconds",
    "Time to answer a request, by route (the route id, or the Express step that answered), method and status class; its _count is the number of requests",
    REQUEST_BUCKETS,
  );
  const requestSeries = new Map<string, Map<string, Array<HistogramSeries | undefined>>>();
  /** Both series of a cache, made when it is first looked in (a cache that is off shows none). */
  const pageCacheSeries: Partial<Record<PageCacheName, Record<"hit" | "miss", { value: number }>>> =
    {};
  const pageCacheLookups = new HotCounter(
    registry,
    "storefront_page_cache_lookups_total",
    "Look-ups in each HTML cache: result=hit answered from memory, miss rendered",
  );
  new Gauge({
    name: "storefront_page_cache_bytes",
    help: "What the pages kept in each HTML cache weigh, by the cache's own measure",
    labelNames: ["cache"] as const,
    registers,
    collect() {
      const bytes = sources.pageCacheBytes?.() ?? {};
      for (const [cache, value] of Object.entries(bytes)) this.set({ cache }, value ?? 0);
    },
  });

  const rateLimitRefusals = new Counter({
    name: "storefront_rate_limit_refusals_total",
    help: "Attempts found over a rate limit, by limiter (the counter's name, e.g. topup-ip)",
    labelNames: ["limiter"] as const,
    registers,
  });

  new Gauge({
    name: "storefront_db_connections_in_use",
    help: "Database connections running a query or held by a transaction (SQLite has one)",
    labelNames: ["engine"] as const,
    registers,
    collect() {
      const pool = sources.databasePool?.();
      if (pool) this.set({ engine: pool.engine }, pool.inUse);
    },
  });
  new Gauge({
    name: "storefront_db_connections_waiting",
    help: "Queries and transactions waiting for a database connection",
    labelNames: ["engine"] as const,
    registers,
    collect() {
      const pool = sources.databasePool?.();
      if (pool) this.set({ engine: pool.engine }, pool.waiting);
    },
  });
  const databaseTimeouts = new Counter({
    name: "storefront_db_timeouts_total",
    help: "Statements that gave up: kind=statement (PostgreSQL statement_timeout), lock (a lock wait: PostgreSQL lock_timeout, SQLite busy_timeout), connection (no free pooled connection in time)",
    labelNames: ["engine", "kind"] as const,
    registers,
  });

  const outsideCalls = new Histogram({
    name: "storefront_outside_call_duration_seconds",
    help: "Calls to outside systems (identity, payments, esim, bss, smtp, sms, id-validation) by operation and outcome (ok, refused, unavailable, error); its _count is the number of calls",
    labelNames: ["system", "operation", "outcome"] as const,
    buckets: CALL_BUCKETS,
    registers,
  });

  const queueGauges = (
    prefix: string,
    what: string,
    failedHelp: string,
    source: () => Promise<QueueStats> | undefined,
  ) => {
    const read = onePerScrape(source);
    new Gauge({
      name: `${prefix}_pending`,
      help: `${what} waiting to be sent or done`,
      aggregator: "max",
      registers,
      async collect() {
        const stats = await read();
        if (stats) this.set(stats.pending);
      },
    });
    new Gauge({
      name: `${prefix}_failed`,
      help: failedHelp,
      aggregator: "max",
      registers,
      async collect() {
        const stats = await read();
        if (stats) this.set(stats.failed);
      },
    });
    new Gauge({
      name: `${prefix}_oldest_pending_seconds`,
      help: `Age of the oldest of the ${what.toLowerCase()} waiting (0 when none)`,
      aggregator: "max",
      registers,
      async collect() {
        const stats = await read();
        if (stats) this.set(stats.oldestPendingSeconds ?? 0);
      },
    });
  };
  queueGauges(
    "storefront_mail_queue",
    "E-mails",
    "E-mails given up on after every retry (as /readyz's mail.failed)",
    () => sources.mailQueue?.(),
  );
  queueGauges(
    "storefront_line_jobs",
    "Line jobs",
    "Line jobs (top-ups, activations, registrations) the BSS refused, waiting for the operator",
    () => sources.lineJobs?.(),
  );

  const payments = new Counter({
    name: "storefront_payments_total",
    help: "Payments by method (card, cash, spei) and the state they reached: pending (begun), approved, declined, expired, replaced (another method chosen)",
    labelNames: ["method", "state"] as const,
    registers,
  });
  const readPending = onePerScrape(() => sources.pendingPayments?.());
  new Gauge({
    name: "storefront_payments_pending",
    help: "Payments waiting for the customer or the provider now, by method",
    labelNames: ["method"] as const,
    aggregator: "max",
    registers,
    async collect() {
      const rows = await readPending();
      if (!rows) return;
      this.reset();
      for (const row of rows) this.set({ method: row.method }, row.pending);
    },
  });
  new Gauge({
    name: "storefront_payments_pending_past_expiry",
    help: "Vouchers and transfers still pending after their expiry: the overdue sweep (every 5 minutes) closes them",
    labelNames: ["method"] as const,
    aggregator: "max",
    registers,
    async collect() {
      const rows = await readPending();
      if (!rows) return;
      this.reset();
      for (const row of rows) this.set({ method: row.method }, row.pastExpiry);
    },
  });

  const readBudget = onePerScrape(() => sources.lineCodeBudget?.());
  new Gauge({
    name: "storefront_line_codes_hour_sent",
    help: "SMS codes that prove a line sent in the current hour of the store's budget (all numbers, all requesters)",
    aggregator: "max",
    registers,
    async collect() {
      const use = await readBudget();
      if (use) this.set(use.sent);
    },
  });
  new Gauge({
    name: "storefront_line_codes_hour_budget",
    help: "SMS codes the store sends in an hour before refusing more (LINE_CODE_SMS_PER_HOUR); alert before _hour_sent reaches it",
    aggregator: "max",
    registers,
    async collect() {
      const use = await readBudget();
      if (use) this.set(use.budget);
    },
  });

  new Gauge({
    name: "storefront_readiness_check",
    help: "1 when the dependency of each /readyz check answers, 0 when not (the lowest of the cluster's workers)",
    labelNames: ["check"] as const,
    aggregator: "min",
    registers,
    async collect() {
      const checks = await sources.readiness?.().catch(() => null);
      if (!checks) return;
      for (const [check, ok] of Object.entries(checks)) this.set({ check }, ok ? 1 : 0);
    },
  });

  const build = new Gauge({
    name: "storefront_build_info",
    help: "1, labelled with the build this process serves: its version (as /build-version), the commit it was built from and Node's version",
    labelNames: ["version", "commit", "node"] as const,
    // Every worker of a cluster serves the same build: one series of 1, not their sum.
    aggregator: "max",
    registers,
  });

  return {
    registry,
    /** The build this process serves (server.ts, once the build is loaded; decision 0143). */
    buildInfo(labels: { version: string; commit: string; node: string }) {
      build.reset();
      build.set(labels, 1);
    },
    /** Where the values read at scrape time come from (services.server.ts, server.ts). */
    watch(more: MetricSources) {
      Object.assign(sources, more);
    },
    observeRequest(route: string, method: string, status: number, seconds: number) {
      // Found through maps keyed by strings the server reuses (route ids, methods), without
      // building a key: the series of a request is two look-ups and an index away.
      let byMethod = requestSeries.get(route);
      if (!byMethod) requestSeries.set(route, (byMethod = new Map()));
      let byStatus = byMethod.get(method);
      if (!byStatus) byMethod.set(method, (byStatus = []));
      const classIndex = status >= 100 && status < 600 ? Math.floor(status / 100) : 0;
      let series = byStatus[classIndex];
      if (!series) {
        const labels = { route, method: methodLabel(method), status_class: statusClass(status) };
        series = requestDuration.series(
          `${labels.route} ${labels.method} ${labels.status_class}`,
          () => labels,
        );
        byStatus[classIndex] = series;
      }
      series.observe(seconds);
    },
    pageCacheLookup(cache: PageCacheName, hit: boolean) {
      const series = (pageCacheSeries[cache] ??= {
        hit: pageCacheLookups.series({ cache, result: "hit" }),
        miss: pageCacheLookups.series({ cache, result: "miss" }),
      });
      series[hit ? "hit" : "miss"].value += 1;
    },
    rateLimitRefused(key: string) {
      rateLimitRefusals.inc({ limiter: limiterName(key) });
    },
    databaseTimeout(engine: DatabasePoolStats["engine"], kind: DatabaseTimeoutKind) {
      databaseTimeouts.inc({ engine, kind });
    },
    outsideCall(system: OutsideSystem, operation: string, outcome: CallOutcome, seconds: number) {
      outsideCalls.observe({ system, operation, outcome }, seconds);
    },
    payment(method: string, state: string) {
      payments.inc({ method, state } satisfies LabelValues<"method" | "state">);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * One read of `source` for all the gauges collected in one scrape: prom-client starts every
 * metric's collection at once, so the first gauge starts the read and the others share it; once
 * it settles, the next scrape reads again. A source that fails, or is not set, gives nothing, and
 * the gauges keep their last values.
 */
function onePerScrape<T>(source: () => Promise<T> | undefined): () => Promise<T | null> {
  let reading: Promise<T | null> | null = null;
  return () => {
    reading ??= Promise.resolve(source())
      .then(
        (value) => value ?? null,
        () => null,
      )
      .finally(() => {
        reading = null;
      });
    return reading;
  };
}

/**
 * How a call that threw ended: the adapters' own errors say it by name (BssUnavailable,
 * SmsRefused, PaymentProviderUnavailable…); anything else is an error.
 */
export function outcomeOf(error: unknown): CallOutcome {
  const name = error instanceof Error ? error.name : "";
  if (name.endsWith("Unavailable")) return "unavailable";
  if (name.endsWith("Refused")) return "refused";
  return "error";
}

/**
 * `adapter` with each of `operations` timed and counted as a call to `system`: the one seam of
 * an outside system is the interface the app reaches it through. Everything else (its name, its
 * other methods) is the adapter's own.
 */
export function measuredCalls<T extends object>(
  metrics: Pick<Metrics, "outsideCall">,
  system: OutsideSystem,
  adapter: T,
  operations: ReadonlyArray<keyof T & string>,
  classify: (error: unknown) => CallOutcome = outcomeOf,
): T {
  const measured = Object.create(adapter) as T;
  for (const operation of operations) {
    const call = adapter[operation];
    if (typeof call !== "function") continue;
    Object.defineProperty(measured, operation, {
      value: async (...args: unknown[]) => {
        const started = performance.now();
        try {
          const result: unknown = await (call as (...a: unknown[]) => unknown).apply(adapter, args);
          metrics.outsideCall(system, operation, "ok", (performance.now() - started) / 1000);
          return result;
        } catch (error) {
          const seconds = (performance.now() - started) / 1000;
          metrics.outsideCall(system, operation, classify(error), seconds);
          throw error;
        }
      },
    });
  }
  return measured;
}
