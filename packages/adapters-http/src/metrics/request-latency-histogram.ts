/** Seconds buckets of the request latency histogram: 1 ms to 5 s. */
export const LATENCY_BUCKETS: readonly number[] = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];

/** One route's latencies so far: answers per bucket (LATENCY_BUCKETS, then +Inf; not cumulative), sum, count. */
export interface LatencyCounts {
  readonly buckets: number[];
  sum: number;
  count: number;
}

/** An empty LatencyCounts. */
export function emptyLatencyCounts(): LatencyCounts {
  return { buckets: new Array<number>(LATENCY_BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
}

/**
 * Counts one latency, in seconds, as prom-client's Histogram would (the first bucket whose bound is at
 * least the value; a value above every bound in +Inf alone). The request observer does the same inline.
 */
export function countLatency(counts: LatencyCounts, seconds: number): void {
  let b = 0;
  while (b < LATENCY_BUCKETS.length && !(seconds <= (LATENCY_BUCKETS[b] as number))) b++;
  (counts.buckets as number[])[b] = (counts.buckets[b] as number) + 1;
  counts.sum += seconds;
  counts.count += 1;
}

/** One line's value as prom-client's registry reads it. */
interface Value {
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string>;
  value: number;
  metricName: string;
  exemplar?: null;
}

/**
 * The request latency histogram as the metrics registry reads it (prom-client's metric contract:
 * `get`, `getForPromString`, `reset`; registered with `registry.registerMetric`), read from the
 * plain counts the request observer keeps per route: a request adds to numbers, and the buckets,
 * sum and count are laid out only when scraped, line for line as prom-client's Histogram lays
 * them out (a test compares the two).
 */
export class RequestLatencyHistogram {
  readonly type = "histogram";
  readonly aggregator = "sum";

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly routes: ReadonlyMap<string, LatencyCounts>,
  ) {}

  /** The values with the route as a shared label (what the text exposition reads). */
  async getForPromString(): Promise<{
    name: string;
    help: string;
    type: "histogram";
    values: Value[];
    aggregator: "sum";
  }> {
    const values: Value[] = [];
    const bucket = `${this.name}_bucket`;
    for (const [route, counts] of this.routes) {
      if (counts.count === 0) continue;
      const shared = { route };
      let acc = 0;
      for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
        acc += counts.buckets[i] as number;
        values.push({
          labels: { le: LATENCY_BUCKETS[i] as number },
          sharedLabels: shared,
          value: acc,
          metricName: bucket,
          exemplar: null,
        });
      }
      values.push(
        {
          labels: { le: "+Inf" },
          sharedLabels: shared,
          value: counts.count,
          metricName: bucket,
          exemplar: null,
        },
        { labels: {}, sharedLabels: shared, value: counts.sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: shared, value: counts.count, metricName: `${this.name}_count` },
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The values with every label on the value (what the JSON form reads). */
  async get(): Promise<{
    name: string;
    help: string;
    type: "histogram";
    values: Value[];
    aggregator: "sum";
  }> {
    const data = await this.getForPromString();
    data.values = data.values.map(({ sharedLabels, labels, ...rest }) => ({
      ...rest,
      labels: { ...labels, ...sharedLabels },
    }));
    return data;
  }

  /** Forgets every count (the registry's `resetMetrics`). */
  reset(): void {
    for (const counts of this.routes.values()) {
      counts.buckets.fill(0);
      counts.sum = 0;
      counts.count = 0;
    }
  }
}
