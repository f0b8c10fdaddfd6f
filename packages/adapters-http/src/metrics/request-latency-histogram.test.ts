import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import {
  countLatency,
  emptyLatencyCounts,
  LATENCY_BUCKETS,
  type LatencyCounts,
  RequestLatencyHistogram,
} from "./request-latency-histogram.js";

const NAME = "keyward_http_request_duration_seconds";
const HELP = "Time from a request's arrival to its answer, by route name.";

/** The same observations in prom-client's own Histogram and in the counts, each in a registry of its own. */
function both(): { reference: Registry; ours: Registry; observe(route: string, seconds: number): void } {
  const reference = new Registry();
  const histogram = new Histogram({
    name: NAME,
    help: HELP,
    labelNames: ["route"],
    buckets: [...LATENCY_BUCKETS],
    registers: [reference],
  });
  const ours = new Registry();
  const routes = new Map<string, LatencyCounts>();
  ours.registerMetric(new RequestLatencyHistogram(NAME, HELP, routes) as unknown as Histogram);
  return {
    reference,
    ours,
    observe(route, seconds) {
      histogram.labels(route).observe(seconds);
      let counts = routes.get(route);
      if (counts === undefined) {
        counts = emptyLatencyCounts();
        routes.set(route, counts);
      }
      countLatency(counts, seconds);
    },
  };
}

describe("RequestLatencyHistogram", () => {
  it("lays out the same lines and JSON as prom-client's Histogram fed the same latencies", async () => {
    const { reference, ours, observe } = both();
    const routes = ["app.GET /x", "none", 'we"ird\\route\n', "identity.me"];
    const values = [0, 0.0001, 0.001, 0.0010001, 0.0025, 0.004, 0.3, 1, 2.5, 4.99, 5, 5.01, 120, 1e-9];
    let seed = 11;
    for (let i = 0; i < 500; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const pick = Math.floor(seed / 65536);
      observe(
        routes[pick % routes.length]!,
        values[Math.floor(pick / 7) % values.length]! * (1 + (pick % 3) / 1000),
      );
    }
    expect(await ours.metrics()).toBe(await reference.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await reference.getMetricsAsJSON());
  });

  it("lists nothing before the first latency, and nothing again after a reset", async () => {
    const { reference, ours, observe } = both();
    expect(await ours.metrics()).toBe(await reference.metrics());
    observe("app.GET /x", 0.002);
    ours.resetMetrics();
    reference.resetMetrics();
    expect(await ours.metrics()).toBe(await reference.metrics());
    observe("app.GET /x", 0.2);
    expect(await ours.metrics()).toBe(await reference.metrics());
  });

  it("counts a latency in the first bucket whose bound is at least it, and above every bound in +Inf alone", () => {
    const counts = emptyLatencyCounts();
    countLatency(counts, 0.001);
    countLatency(counts, 0.0011);
    countLatency(counts, 6);
    expect(counts.buckets).toEqual([1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(counts).toMatchObject({ count: 3, sum: 0.001 + 0.0011 + 6 });
  });
});
