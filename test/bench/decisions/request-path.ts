import { performance } from "node:perf_hooks";
import { serveHttp } from "@keyward/adapters-http";
import { buildDemoPlatform } from "@keyward/cli";
import { DecisionPipeline } from "@keyward/core/decisions";
import { ServerAddress } from "@keyward/core";

/** One demo server for the request-path measurement. */
interface Demo {
  label: "off" | "on";
  base: string;
  authorization: string;
  close(): Promise<void>;
  decided(): number;
}

/** p50/p99 and requests per second of one server over all its rounds. */
export interface PathRow {
  decisions: "off" | "on";
  requests: number;
  p50Ms: number;
  p99Ms: number;
  rps: number;
  decided: number;
}

async function startDemo(label: "off" | "on"): Promise<Demo> {
  const demo = await buildDemoPlatform(
    {
      properties: {
        "platform.auth.password.scrypt.cost-log2": 14,
        "platform.auth.mfa.minimumRejectionDelayMs": 0,
        "platform.auth.ott.outbox-file": `/tmp/bench-decisions-${label}-${process.pid}.jsonl`,
        "platform.security.decision.enabled": label === "on",
        // Every request is a candidate: zero trust samples each, and a miss asks for a decision.
        "security.zerotrust.sampling.rate": 1,
      },
    },
    {},
  );
  const server = await serveHttp(demo.app, { port: 0, hostname: "127.0.0.1" });
  demo.platform.resolve(ServerAddress).port = server.port;
  const base = `http://127.0.0.1:${server.port}`;
  const res = await fetch(`${base}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "user", password: "password" }),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
  const { accessToken } = (await res.json()) as { accessToken: string };
  return {
    label,
    base,
    authorization: `Bearer ${accessToken}`,
    decided: () => demo.platform.resolve(DecisionPipeline).stats().decided,
    async close() {
      await server.close(true);
      await demo.platform.stop();
    },
  };
}

/** `connections` closed loops of bearer `GET /api/orders` for `durationMs`; the latencies in ms. */
async function load(demo: Demo, connections: number, durationMs: number): Promise<number[]> {
  const latencies: number[] = [];
  const end = performance.now() + durationMs;
  const loop = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      const res = await fetch(`${demo.base}/api/orders`, { headers: { authorization: demo.authorization } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`decisions ${demo.label}: /api/orders answered ${res.status}`);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  return latencies;
}

/**
 * The demo with decisions off and on, side by side in this process, measured in interleaved rounds
 * (off, on, on, off, ...) so drift of the machine falls on both alike.
 */
export async function measureRequestPath(
  rounds: number,
  durationMs: number,
  connections: number,
): Promise<PathRow[]> {
  const demos = [await startDemo("off"), await startDemo("on")];
  try {
    const all = new Map<string, number[]>(demos.map((d) => [d.label, []]));
    const time = new Map<string, number>(demos.map((d) => [d.label, 0]));
    for (const d of demos) await load(d, connections, 300); // warm-up
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? demos : [...demos].reverse();
      for (const d of order) {
        const t = performance.now();
        all.get(d.label)!.push(...(await load(d, connections, durationMs)));
        time.set(d.label, time.get(d.label)! + performance.now() - t);
      }
    }
    return demos.map((d) => {
      const sorted = all.get(d.label)!.sort((a, b) => a - b);
      const q = (p: number) => Math.round(sorted[Math.floor(p * (sorted.length - 1))]! * 1000) / 1000;
      return {
        decisions: d.label,
        requests: sorted.length,
        p50Ms: q(0.5),
        p99Ms: q(0.99),
        rps: Math.round(sorted.length / (time.get(d.label)! / 1000)),
        decided: d.decided(),
      };
    });
  } finally {
    for (const d of demos) await d.close();
  }
}
