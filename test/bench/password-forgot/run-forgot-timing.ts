/**
 * `pnpm bench:forgot`: does `POST /api/password/forgot` take the same time for a name that gets a
 * link and for one that does not? The demo (in memory, its own outbox) serves; one client sends 200
 * requests for each, alternating, one at a time, two rounds; it prints each round's medians and
 * the difference (issue 34: within 5 ms). The per-name limit is raised for the run so every known
 * request really generates and mails a link after its answer.
 */
import "reflect-metadata";
import { serveHttp } from "@keyward/adapters-http";
import { buildDemoPlatform } from "@keyward/cli";
import { ServerAddress } from "@keyward/core";
import { PasswordHasher, UserRepository } from "@keyward/core/ports";
import { mkdtempSync, readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

const REQUESTS = 200;
// Two rounds: 20 + 2 × 400 requests stay under the per-address limit (at most 1000 per window).
const ROUNDS = 2;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

async function main(): Promise<void> {
  const outbox = join(mkdtempSync(join(tmpdir(), "forgot-bench-")), "outbox.jsonl");
  const demo = await buildDemoPlatform({
    properties: {
      "platform.auth.ott.outbox-file": outbox,
      "platform.auth.ott.max-per-user": 1000,
      "platform.auth.ott.max-per-ip": 1000,
      "platform.security.decision.enabled": false,
    },
  });
  const server = await serveHttp(demo.app, { port: 0, hostname: "127.0.0.1" });
  demo.platform.resolve(ServerAddress).port = server.port;
  const passwordHash = await demo.platform.resolve(PasswordHasher).hash("bench-password-1");
  await demo.platform
    .resolve(UserRepository)
    .create({ username: "fay", passwordHash, authorities: ["ROLE_USER"], email: "fay@example.org" });
  const url = `http://127.0.0.1:${server.port}/api/password/forgot`;
  const post = async (username: string) => {
    const t0 = performance.now();
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username }),
    });
    await res.arrayBuffer();
    if (res.status !== 202) throw new Error(`answered ${res.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 20; i++) await post(i % 2 ? "fay" : "warm-up-unknown");
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  for (let round = 1; round <= ROUNDS; round++) {
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      known.push(await post("fay"));
      unknown.push(await post(`nobody-${round}-${i}`));
    }
    const [k, u] = [median(known), median(unknown)];
    console.log(
      `round ${round}: known median ${k.toFixed(2)} ms, unknown median ${u.toFixed(2)} ms, difference ${(k - u).toFixed(2)} ms`,
    );
  }
  const expected = 10 + REQUESTS * ROUNDS;
  let mailed = 0;
  for (let wait = 0; wait < 100 && mailed < expected; wait++) {
    await new Promise((r) => setTimeout(r, 50));
    mailed = readFileSync(outbox, "utf8")
      .split("\n")
      .filter((l) => l.includes('"password-forgot"')).length;
  }
  console.log(`links mailed to fay: ${mailed} of ${expected} known requests (each after its answer)`);
  await server.close(true);
  await demo.platform.stop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
