import type { Metric, Registry } from "prom-client";

/**
 * A counter and a histogram for what every request records (decision 0110), exposed through
 * prom-client's registry (its text format, its cluster aggregation) like any of its own metrics.
 * prom-client's `labels(…).observe()` validates and hashes the label set on every call (about
 * 1.8 µs a request on this busy machine, measured by scripts/bench-instrumentation.ts); these keep
 * one record per label set, found by a key the caller builds, so a request costs a map look-up
 * and a few additions. They answer `get()` in prom-client's own shape, so the registry cannot
 * tell them from its own.
 */

interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

interface MetricValue {
  name: string;
  help: string;
  type: "counter" | "histogram";
  aggregator: "sum";
  values: Sample[];
}

/** The registry takes any object that answers as its metrics do. */
function register(registry: Registry, metric: { name: string; get(): MetricValue }) {
  registry.registerMetric(metric as unknown as Metric);
}

export class HotCounter {
  readonly #series = new Map<string, { labels: Record<string, string>; value: number }>();

  constructor(
    registry: Registry,
    readonly name: string,
    readonly help: string,
  ) {
    register(registry, this);
  }

  /** The series of these labels, made the first time: a handle the caller keeps and adds to. */
  series(labels: Record<string, string>): { value: number } {
    const key = JSON.stringify(labels);
    let series = this.#series.get(key);
    if (!series) {
      series = { labels, value: 0 };
      this.#series.set(key, series);
    }
    return series;
  }

  get(): MetricValue {
    return {
      name: this.name,
      help: this.help,
      type: "counter",
      aggregator: "sum",
      values: [...this.#series.values()].map(({ labels, value }) => ({ labels, value })),
    };
  }
}

export class HotHistogram {
  readonly #series = new Map<string, HistogramSeries>();

  constructor(
    registry: Registry,
    readonly name: string,
    readonly help: string,
    /** Upper bounds, ascending. */
    readonly upperBounds: readonly number[],
  ) {
    register(registry, this);
  }

  /**
   * The series `key` names, made the first time (`labels` is read only then): a handle the caller
   * keeps, so that recording needs no look-up at all.
   */
  series(key: string, labels: () => Record<string, string>): HistogramSeries {
    let series = this.#series.get(key);
    if (!series) {
      series = new HistogramSeries(labels(), this.upperBounds);
      this.#series.set(key, series);
    }
    return series;
  }

  get(): MetricValue {
    const values: Sample[] = [];
    for (const { labels, buckets, sum, count } of this.#series.values()) {
      let cumulative = 0;
      this.upperBounds.forEach((bound, index) => {
        cumulative += buckets[index]!;
        values.push({
          labels: { le: bound, ...labels },
          value: cumulative,
          metricName: `${this.name}_bucket`,
        });
      });
      values.push({
        labels: { le: "+Inf", ...labels },
        value: count,
        metricName: `${this.name}_bucket`,
      });
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: "histogram", aggregator: "sum", values };
  }
}

export class HistogramSeries {
  readonly buckets: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Record<string, string>,
    private readonly upperBounds: readonly number[],
  ) {
    this.buckets = upperBounds.map(() => 0);
  }

  observe(value: number) {
    this.sum += value;
    this.count += 1;
    const bounds = this.upperBounds;
    for (let index = 0; index < bounds.length; index++) {
      if (value <= bounds[index]!) {
        this.buckets[index]! += 1;
        return;
      }
    }
  }
}
