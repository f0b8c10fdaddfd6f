// `pnpm bench:walk`: which of our files and functions one warm, cached-token `GET /api/orders` runs.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type PreciseCoverage, startPreciseCoverage } from "./precise-coverage.js";
import {
  countRequestWalk,
  extrasOf,
  formatRequestWalk,
  packageSourceFileOf,
  quietestRound,
  type RequestWalk,
  type ScriptCoverage,
  type WalkRound,
} from "./request-walk.js";

const USAGE = `pnpm bench:walk [--warmup N] [--rounds N] [--path PATH]

Starts the demo platform in this process on a loopback port, signs the demo user in by the REST
login (a bearer token), sends N warm-up requests (default 10: the token is verified and cached, every
lazy path compiled), then takes V8 precise coverage around exactly one more request, in N rounds
(default 5), and prints the files and functions of packages/* (not h3, srvx, node_modules or Node)
whose call count rose in the round with the fewest (a timer firing can only add to a round).
--path PATH   the request measured (default /api/orders)
`;

/**
 * V8 flags the walk runs under: optimised code that inlined a function no longer counts its calls
 * (with 500 warm-up requests instead of 10, 7 of 114 functions went missing), so only the
 * interpreter and the baseline compiler run, which count every call.
 */
const NO_OPTIMISER = ["--no-opt", "--no-maglev"];

/** The goal of issue 26 for one warm request. */
const GOAL = { files: 20, functions: 50 };

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

interface Options {
  warmup: number;
  rounds: number;
  path: string;
}

function parseOptions(argv: string[]): Options | "help" {
  const args = argv.filter((a) => a !== "--");
  const opts: Options = { warmup: 10, rounds: 5, path: "/api/orders" };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = args[i + 1];
    if (a === "--help" || a === "-h") return "help";
    if (value === undefined) throw new Error(`unknown option ${a}`);
    const count = /^\d+$/.test(value) && Number(value) >= 1 ? Number(value) : undefined;
    if (a === "--warmup" && count) opts.warmup = count;
    else if (a === "--rounds" && count) opts.rounds = count;
    else if (a === "--path" && value.startsWith("/")) opts.path = value;
    else throw new Error(`bad option ${a} ${value}`);
    i++;
  }
  return opts;
}

/** What the walk needs of a server: where it listens and a bearer `Authorization` header. */
export interface WalkTarget {
  baseUrl: string;
  authorization: string;
}

/**
 * Sends `warmup` requests, then measures `rounds` times: one idle window (two takes with no request:
 * what runs anyway, such as a poller's timer) and exactly one request between two takes (the first
 * take resets the counters). Throws when an answer is not a 200 JSON array or object.
 */
export async function walkRequests(
  target: WalkTarget,
  coverage: PreciseCoverage,
  opts: Options,
): Promise<WalkRound[]> {
  const send = async (): Promise<void> => {
    const res = await fetch(new URL(opts.path, target.baseUrl), {
      headers: { accept: "application/json", authorization: target.authorization },
    });
    const body = await res.text();
    if (res.status !== 200 || !/^[[{]/.test(body)) {
      throw new Error(`${opts.path} answered ${res.status}: ${body.slice(0, 160)}`);
    }
  };
  for (let i = 0; i < opts.warmup; i++) await send();
  const fileOf = packageSourceFileOf(ROOT);
  const taken: { idle: ScriptCoverage[]; request: ScriptCoverage[] }[] = [];
  for (let round = 0; round < opts.rounds; round++) {
    await settle();
    await coverage.take();
    await settle();
    const idle = await coverage.take();
    await coverage.take();
    await send();
    await settle();
    taken.push({ idle, request: await coverage.take() });
  }
  const positionOf = await coverage.sourcePositions(taken.flatMap((t) => t.request));
  return taken.map((t) => ({
    walk: countRequestWalk(t.request, { fileOf, positionOf }),
    idle: countRequestWalk(t.idle, { fileOf, positionOf }),
  }));
}

/** Lets the callbacks a request queued (microtasks, immediates) run before the next take. */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Runs this script again under NO_OPTIMISER when it was started without those flags. */
function rerunWithoutOptimiser(): number | undefined {
  if (NO_OPTIMISER.every((flag) => process.execArgv.includes(flag))) return undefined;
  const args = [...NO_OPTIMISER, ...process.execArgv, ...process.argv.slice(1)];
  return spawnSync(process.execPath, args, { stdio: "inherit" }).status ?? 1;
}

async function main(): Promise<number> {
  const rerun = rerunWithoutOptimiser();
  if (rerun !== undefined) return rerun;
  let opts: Options | "help";
  try {
    opts = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (opts === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  // Coverage starts before the platform's modules load, so that every function is counted.
  const coverage = await startPreciseCoverage();
  await import("reflect-metadata");
  const { startDemoServer } = await import("../login/demo-server.js");
  const { signInDemoUser } = await import("../http/demo-credentials.js");
  const server = await startDemoServer();
  try {
    const { authorization } = await signInDemoUser(server.baseUrl);
    const rounds = await walkRequests({ baseUrl: server.baseUrl, authorization }, coverage, opts);
    const quietest = quietestRound(rounds);
    const { walk } = quietest;
    const [totals, ...files] = formatRequestWalk(walk);
    process.stdout.write(
      `GET ${opts.path} (bearer, warm, cached token): ${totals}\n\n${files.join("\n")}\n\n`,
    );
    const goal = walk.fileCount <= GOAL.files && walk.functionCount <= GOAL.functions;
    const per = (pick: (r: WalkRound) => RequestWalk) =>
      rounds.map((r) => `${pick(r).functionCount}/${pick(r).fileCount}`).join(", ");
    process.stdout.write(
      `goal: <= ${GOAL.files} files, <= ${GOAL.functions} functions: ${goal ? "met" : "not met"}\n` +
        `rounds (functions/files): ${per((r) => r.walk)}; idle windows: ${per((r) => r.idle)}\n`,
    );
    const extras = extrasOf(rounds, quietest);
    if (extras.length > 0) process.stdout.write(`ran in other rounds only:\n  ${extras.join("\n  ")}\n`);
  } finally {
    await server.close();
    await coverage.stop();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench:walk: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
