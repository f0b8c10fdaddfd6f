import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { machineInfo } from "../login/machine.js";
import {
  AUTHZ_USAGE,
  type AuthzBenchOptions,
  AuthzBenchUsageError,
  parseAuthzBenchOptions,
} from "./authz-options.js";
import { type AuthzBenchResults, evaluateGoals, mismatchTotal, renderAuthzReport } from "./authz-report.js";
import { runSize, type SizeRun } from "./authz-scenario.js";
import { loadPdpFactory } from "./load-pdp.js";

/**
 * `pnpm bench:authz [-- --quick]`: the PDP benchmark of issue #8. For each N: the workload, the PDP under
 * test (test/bench/authz/platform-pdp.ts when present, else the reference), node-casbin beside it in
 * interleaved repetitions, every request compared with the independent reference under all five
 * combining algorithms. Prints a markdown report and writes it to `.platform/bench/authz-latest.md`
 * (quick: authz-latest-quick.md). Exit 0 when nothing mismatched, 1 on a mismatch or a failure,
 * 2 on bad usage or a timeout. Missed speed goals are reported, not fatal.
 */
async function main(): Promise<number> {
  let parsed: AuthzBenchOptions | "help";
  try {
    parsed = parseAuthzBenchOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof AuthzBenchUsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${AUTHZ_USAGE}`);
    return 2;
  }
  if (parsed === "help") {
    process.stdout.write(AUTHZ_USAGE);
    return 0;
  }
  const opts = parsed;
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench:authz: aborted after AUTHZ_BENCH_TIMEOUT_MS=${opts.timeoutMs}\n`);
    process.exit(2);
  }, opts.timeoutMs);
  watchdog.unref();

  const startedAt = new Date();
  const t0 = performance.now();
  const factory = await loadPdpFactory(opts.pdp, opts.pdpModule);
  const probe = await factory.create();
  const pdpName = probe.name;
  await probe.close?.();
  progress(
    `PDP under test: ${pdpName} (${factory.source}); casbin model ${opts.casbinVariant}; sizes ${opts.sizes.join(", ")}`,
  );
  const sizes: SizeRun[] = [];
  for (const n of opts.sizes) sizes.push(await runSize(n, opts, factory, progress));
  const results: AuthzBenchResults = {
    startedAt,
    options: opts,
    machine: machineInfo(),
    pdpName,
    pdpSource: factory.source,
    pdpLocation: factory.location,
    casbinVersion: casbinVersion(),
    sizes,
    totalMs: performance.now() - t0,
  };

  const report = renderAuthzReport(results);
  process.stdout.write(`\n${report}\n`);
  const dir = new URL("../../../.platform/bench/", import.meta.url);
  await mkdir(fileURLToPath(dir), { recursive: true });
  const file = fileURLToPath(new URL(opts.quick ? "authz-latest-quick.md" : "authz-latest.md", dir));
  await writeFile(file, report);
  process.stdout.write(`Written to ${file}\n`);
  clearTimeout(watchdog);
  const missed = evaluateGoals(results).filter((g) => !g.met).length;
  if (missed > 0) progress(`${missed} goal(s) missed (see the Goals table)`);
  return mismatchTotal(results) > 0 ? 1 : 0;
}

function casbinVersion(): string {
  const pkg: unknown = createRequire(import.meta.url)("casbin/package.json");
  return typeof pkg === "object" && pkg !== null && "version" in pkg ? String(pkg.version) : "unknown";
}

function progress(line: string): void {
  process.stderr.write(`bench:authz: ${line}\n`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `bench:authz: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
