// The CPU cost of what operators watch (issue 27) on the request path, measured in-process: the demo's
// `GET /health` through the whole pipeline with the access log and the request metrics off, the
// access log alone, and both (the default). The log goes to /dev/null through the default JSON
// logger (a real write per line). Configurations run interleaved, so machine load hits all alike;
// the figure is process CPU time per request (user + system), which load moves far less than
// throughput. Run: `pnpm exec tsx test/bench/http/operations-cost.ts [rounds] [requests]`.
import "reflect-metadata";
import { openSync, writeSync } from "node:fs";
import { buildDemoPlatform } from "@keyward/cli";
import { Logger } from "@keyward/core/ports";
// The default logger itself (not exported: a host writes its own or keeps the default).
import { JsonLogger } from "../../../packages/core/src/kernel/logger.js";

const CONFIGS = {
  off: { "platform.http.access-log.enabled": false, "platform.http.metrics.enabled": false },
  "access-log": { "platform.http.access-log.enabled": true, "platform.http.metrics.enabled": false },
  "access-log+metrics": { "platform.http.access-log.enabled": true, "platform.http.metrics.enabled": true },
} as const;

const rounds = Number(process.argv[2] ?? 5);
const requests = Number(process.argv[3] ?? 10_000);
const devNull = openSync("/dev/null", "w");

async function app(properties: Record<string, unknown>) {
  const logger = new JsonLogger((line) => writeSync(devNull, `${line}\n`));
  const demo = await buildDemoPlatform(
    {
      properties,
      plugins: [{ id: "bench-log", register: (ctx) => ctx.override(Logger, { useValue: logger }) }],
    },
    {},
  );
  return {
    demo,
    fetch: (demo.app as unknown as { fetch(r: Request): Promise<Response> }).fetch.bind(demo.app),
  };
}

async function run(fetch: (r: Request) => Promise<Response>, n: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const res = await fetch(new Request("http://localhost/health"));
    await res.arrayBuffer();
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

const apps = await Promise.all(
  Object.entries(CONFIGS).map(async ([name, p]) => ({ name, ...(await app(p)) })),
);
for (const a of apps) await run(a.fetch, 2000); // warm-up
const results = new Map<string, number[]>(apps.map((a) => [a.name, []]));
for (let r = 0; r < rounds; r++)
  for (const a of apps) results.get(a.name)?.push(await run(a.fetch, requests));
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? 0;
const base = median(results.get("off") ?? []);
process.stdout.write(`operations-cost: ${rounds} rounds of ${requests} GET /health, median CPU µs/request\n`);
for (const [name, xs] of results) {
  const m = median(xs);
  process.stdout.write(
    `  ${name.padEnd(20)} ${m.toFixed(1)} µs (${(m - base >= 0 ? "+" : "") + (m - base).toFixed(1)} µs; rounds ${xs.map((x) => x.toFixed(1)).join(", ")})\n`,
  );
}
for (const a of apps) await a.demo.platform.stop();
