import "reflect-metadata";
import { createHook } from "node:async_hooks";
import net from "node:net";
import { startDemoServer } from "../login/demo-server.js";
import { signInDemoUser } from "./demo-credentials.js";

/**
 * `pnpm bench:async [--where ROUTE]`: how many async resources (promises, next-ticks, immediates,
 * timers) the demo server creates per warm request on each of bench:http's demo routes, counted by an
 * async hook over 1,000 keep-alive requests sent from a raw socket (no promise on the client side).
 * A count, not a time: each promise is an allocation and a microtask, so fewer is less CPU, and the
 * count is the same on a busy machine. `--where ROUTE` prints where each one of one request was
 * created instead. The report goes to stdout; the demo's log lines (JSON on stderr) are dropped.
 */
const stderrWrite = process.stderr.write.bind(process.stderr);
process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) =>
  String(chunk).startsWith('{"time"') ? true : stderrWrite(chunk, ...rest)) as typeof process.stderr.write;
const demo = await startDemoServer();
const credentials = await signInDemoUser(demo.baseUrl);
const port = Number(new URL(demo.baseUrl).port);
const get = (path: string, header: string): string =>
  `GET ${path} HTTP/1.1\r\nhost: bench\r\naccept: application/json\r\n${header}\r\n`;
const ROUTES: Record<string, string> = {
  health: get("/health", ""),
  "session-me": get("/api/me", `cookie: ${credentials.sessionCookie}\r\n`),
  "bearer-me": get("/api/me", `authorization: ${credentials.authorization}\r\n`),
  "bearer-orders": get("/api/orders", `authorization: ${credentials.authorization}\r\n`),
};
const TYPES = new Set(["PROMISE", "TickObject", "Immediate", "Timeout"]);
const counts = new Map<string, number>();
const sites: string[] = [];
let counting = false;
let tracing = false;
createHook({
  init(_id, type) {
    if (!TYPES.has(type)) return;
    if (counting) counts.set(type, (counts.get(type) ?? 0) + 1);
    if (tracing) sites.push(`${type} ${siteOf(new Error().stack ?? "")}`);
  },
}).enable();

/** The first frames of a creation stack past the hook's own, with paths cut to the package. */
function siteOf(stack: string): string {
  const frames = stack
    .split("\n")
    .slice(1)
    .map((line) => line.trim().replace(/^at /, ""));
  const past = frames.filter(
    (f) => !f.includes("node:internal/async_hooks") && !f.includes("async-resources"),
  );
  return past
    .slice(0, 3)
    .map((f) => f.replace(/\(.*\/(packages|node_modules)\//, "("))
    .join(" < ");
}

/** Sends `request` `n` times in a row on one keep-alive socket; `onLast` runs before the last. */
function send(request: string, n: number, onLast: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let left = n;
    let buffered = "";
    socket.setEncoding("latin1");
    socket.on("error", reject);
    socket.on("data", (chunk: string) => {
      buffered += chunk;
      const end = buffered.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
      if (buffered.length < end + 4 + length) return;
      if (!buffered.startsWith("HTTP/1.1 200")) reject(new Error(buffered.split("\r\n")[0]));
      buffered = "";
      left -= 1;
      if (left === 1) onLast();
      if (left > 0) socket.write(request);
      else {
        counting = false;
        tracing = false;
        socket.destroy();
        resolve();
      }
    });
    socket.write(request);
  });
}

const where = process.argv.indexOf("--where");
try {
  if (where !== -1) {
    const id = process.argv[where + 1] ?? "";
    const request = ROUTES[id];
    if (request === undefined) throw new Error(`--where takes one of ${Object.keys(ROUTES).join(", ")}`);
    await send(request, 200, () => {});
    await send(request, 3, () => {
      tracing = true;
    });
    process.stdout.write(`${sites.join("\n")}\n`);
  } else {
    const N = 1000;
    process.stdout.write(
      "| route | promises | next-ticks | immediates | timers |\n|---|---:|---:|---:|---:|\n",
    );
    for (const [id, request] of Object.entries(ROUTES)) {
      await send(request, 300, () => {});
      counts.clear();
      counting = true;
      await send(request, N + 1, () => {});
      const per = (type: string): string => ((counts.get(type) ?? 0) / N).toFixed(1);
      process.stdout.write(
        `| ${id} | ${per("PROMISE")} | ${per("TickObject")} | ${per("Immediate")} | ${per("Timeout")} |\n`,
      );
    }
  }
} finally {
  await demo.close();
}
