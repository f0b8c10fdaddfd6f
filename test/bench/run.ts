import "reflect-metadata";
import { mkdir, writeFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { describeError, type RawRun } from "./login/closed-loop.js";
import { type BenchServer, loginOnce, startDemoServer } from "./login/demo-server.js";
import { runHttpClient } from "./login/http-client.js";
import { DEMO_CREDENTIALS, type HttpLoadSpec } from "./login/http-load.js";
import { machineInfo } from "./login/machine.js";
import { type BenchOptions, BenchUsageError, parseBenchOptions, USAGE } from "./login/options.js";
import { type BenchResults, renderReport, SCENARIO } from "./login/report.js";
import { describeScryptHash, runScryptBaseline } from "./login/scrypt-baseline.js";
import { type RunSummary, summarise } from "./login/stats.js";
import { renderMfaReport } from "./mfa/report.js";
import { buildPlatformSdk, SDK_GZIP_BUDGET_BYTES } from "@keyward/sdk-browser/build";
import { type MfaResults, mfaFailed, runMfaBench } from "./mfa/scenario.js";

/**
 * `pnpm bench [-- --quick]`: REST login + JWT issue and an authenticated request against the real
 * demo server on 127.0.0.1, next to the bare scrypt rate at the same parameters; then complete MFA
 * OTT flows (test/bench/mfa) and the memory of a pending MFA flow. Prints markdown tables and writes
 * them to `.platform/bench/latest.md` (gitignored; a quick run writes latest-quick.md). Exit 0 when
 * every request answered 200 with the expected body and the memory measurement succeeded, 1 when
 * anything failed, 2 on bad usage or when the run overran BENCH_TIMEOUT_MS.
 */
async function main(): Promise<number> {
  let options: BenchOptions | "help";
  try {
    options = parseBenchOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof BenchUsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (options === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  const opts = options;
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench: aborted after BENCH_TIMEOUT_MS=${opts.timeoutMs}\n`);
    process.exit(2);
  }, opts.timeoutMs);
  watchdog.unref();

  const startedAt = new Date();
  const t0 = performance.now();
  const machine = machineInfo();
  const server = await startDemoServer();
  let results: BenchResults;
  try {
    results = await measure(opts, server, startedAt, machine);
  } finally {
    await server.close();
  }
  const mfa: MfaResults = await runMfaBench(opts, progress);
  results.totalMs = performance.now() - t0;

  const report = `${renderReport(results)}\n${renderMfaReport(mfa, machine, opts)}\n${await sdkSizeReport()}`;
  process.stdout.write(`\n${report}\n`);
  const file = fileURLToPath(
    new URL(`../../.platform/bench/${opts.quick ? "latest-quick" : "latest"}.md`, import.meta.url),
  );
  await mkdir(fileURLToPath(new URL("../../.platform/bench/", import.meta.url)), { recursive: true });
  await writeFile(file, `${report}\n`);
  process.stdout.write(`Written to ${file}\n`);
  clearTimeout(watchdog);
  const runs = [...results.scryptRuns, ...results.loginRuns, ...results.loginSpreadRuns, ...results.meRuns];
  return runs.some((run) => run.errorCount > 0 || run.ok === 0) || mfaFailed(mfa) ? 1 : 0;
}

async function measure(
  opts: BenchOptions,
  server: BenchServer,
  startedAt: Date,
  machine: BenchResults["machine"],
): Promise<BenchResults> {
  const scrypt = describeScryptHash(server.storedHash);
  progress(
    `demo server on ${server.baseUrl}; scrypt ln=${scrypt.costLog2} r=${scrypt.blockSize} p=${scrypt.parallelization}; ` +
      `client: ${opts.client}${opts.quick ? "; quick" : ""}`,
  );

  const scryptRuns: RunSummary[] = [];
  for (const concurrency of opts.loginConcurrency) {
    const run = await runScryptBaseline(
      server.storedHash,
      DEMO_CREDENTIALS.password,
      concurrency,
      opts.scryptCount,
    );
    scryptRuns.push(report(SCENARIO.scrypt, concurrency, run));
  }

  const loginSpec = (baseUrl: string, concurrency: number): HttpLoadSpec => ({
    request: "login",
    baseUrl,
    concurrency,
    count: opts.loginCount,
    warmup: concurrency,
    timeoutMs: opts.requestTimeoutMs,
  });
  const loginRuns: RunSummary[] = [];
  for (const concurrency of opts.loginConcurrency) {
    const run = await runHttpClient(loginSpec(server.baseUrl, concurrency), opts.client);
    loginRuns.push(report(SCENARIO.login, concurrency, run));
  }

  // The same logins, each connection posing as its own client address, so the per-address
  // serialisation does not apply: shows what the server does when the hash can run in parallel.
  const loginSpreadRuns: RunSummary[] = [];
  const spreadConcurrency = Math.max(...opts.loginConcurrency);
  if (spreadConcurrency > 1) {
    const spreadServer = await startDemoServer({ trustProxy: true });
    try {
      const spec = { ...loginSpec(spreadServer.baseUrl, spreadConcurrency), distinctAddresses: true };
      const run = await runHttpClient(spec, opts.client);
      loginSpreadRuns.push(report(SCENARIO.loginSpread, spreadConcurrency, run));
    } finally {
      await spreadServer.close();
    }
  }

  const token = await loginOnce(server.baseUrl);
  const meRuns: RunSummary[] = [];
  for (const concurrency of opts.meConcurrency) {
    const spec: HttpLoadSpec = {
      request: "me",
      baseUrl: server.baseUrl,
      token,
      concurrency,
      ...(opts.meCount === undefined ? { durationMs: opts.durationMs } : { count: opts.meCount }),
      warmup: Math.max(opts.quick ? 20 : 200, concurrency * 4),
      timeoutMs: opts.requestTimeoutMs,
    };
    const run = await runHttpClient(spec, opts.client);
    meRuns.push(report(SCENARIO.me, concurrency, run));
  }

  return {
    startedAt,
    options: opts,
    machine,
    scrypt,
    target: server.baseUrl,
    scryptRuns,
    loginRuns,
    loginSpreadRuns,
    meRuns,
    totalMs: 0,
  };
}

/** Summarises a run and prints a progress line (with its errors) to stderr. */
function report(scenario: string, concurrency: number, run: RawRun): RunSummary {
  const summary = summarise(scenario, concurrency, run);
  progress(
    `${scenario}, concurrency ${concurrency}: ${summary.ok} ok, ${summary.errorCount} errors, ` +
      `${summary.rate.toFixed(1)}/s, p50 ${summary.p50.toFixed(2)} ms, p99 ${summary.p99.toFixed(2)} ms`,
  );
  for (const [message, count] of Object.entries(summary.errors)) progress(`  ${count} × ${message}`);
  return summary;
}

function progress(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${describeError(error)}\n`);
    if (error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    process.exitCode = 1;
  },
);

/** The browser SDK's size: what `pnpm start` serves, gzipped, against its budget. */
async function sdkSizeReport(): Promise<string> {
  const built = await buildPlatformSdk();
  const rows = built.files.map((f) => `| ${f.name} | ${Buffer.byteLength(f.contents)} |`).join("\n");
  return `## Browser SDK size

| file | bytes |
|---|---:|
${rows}

platform-mfa-sdk.js gzipped: ${built.gzipBytes} bytes (budget ${SDK_GZIP_BUDGET_BYTES}).
`;
}
