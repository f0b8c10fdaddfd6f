// Counts what one request ran from V8 precise coverage (`Profiler.takePreciseCoverage` with
// `callCount: true`): the functions of our packages whose call count rose, grouped by file.

/** One range of V8 block coverage: byte offsets into the script and how often it ran. */
export interface CoverageRange {
  startOffset: number;
  endOffset: number;
  count: number;
}

/** One function of a script; its first range spans the whole function and holds its call count. */
export interface FunctionCoverage {
  functionName: string;
  ranges: CoverageRange[];
  isBlockCoverage: boolean;
}

/** One script's coverage, as `Profiler.takePreciseCoverage` reports it. */
export interface ScriptCoverage {
  scriptId: string;
  url: string;
  functions: FunctionCoverage[];
}

/** Where a function starts in its source file (after source maps, when the caller has them). */
export interface SourcePosition {
  /** 1-based line. */
  line: number;
  /**
   * True when the source map has no source position for it: the transpiler wrote it (tsx's
   * `__name` helper at the top of each module), so it is not a function of our sources.
   */
  generated?: boolean;
}

/** How the walk tells our files from the rest and finds a function's line. */
export interface WalkOptions {
  /** The path of one of our source files (relative to the repository), or undefined for anything else. */
  fileOf(url: string): string | undefined;
  /** The source line of a function starting at `offset` in the script, if known. */
  positionOf?(script: ScriptCoverage, offset: number): SourcePosition | undefined;
}

/** One function that ran during the request. */
export interface WalkedFunction {
  /** V8's name; `(anonymous)` when it has none. */
  name: string;
  line?: number;
  /** How many times its call count rose. */
  calls: number;
}

/** One file of ours with the functions that ran in it, in source order. */
export interface WalkedFile {
  file: string;
  functions: WalkedFunction[];
}

/** The totals and the list, files sorted by path. */
export interface RequestWalk {
  files: WalkedFile[];
  fileCount: number;
  functionCount: number;
  /** Calls over every counted function. */
  callCount: number;
  /** Functions that ran in our files but that the transpiler generated: not counted above. */
  generatedCount: number;
}

/** A function's key within its script: its start offset (two functions never share one). */
const keyOf = (fn: FunctionCoverage): number => fn.ranges[0]?.startOffset ?? -1;

/**
 * The functions of our files whose call count rose from `before` to `after` (both taken with
 * `callCount: true`). When the take between them reset the counters (V8 does on every
 * `takePreciseCoverage`), pass no `before`: every count in `after` is then the rise. A script's
 * top level counts as a function like any other; its load ran before the walk, so it rises only if
 * it was evaluated during the request. Functions `positionOf` marks as generated are left out.
 */
export function countRequestWalk(
  after: readonly ScriptCoverage[],
  options: WalkOptions,
  before: readonly ScriptCoverage[] = [],
): RequestWalk {
  const earlier = new Map<string, Map<number, number>>();
  for (const script of before) {
    earlier.set(script.url, new Map(script.functions.map((fn) => [keyOf(fn), fn.ranges[0]?.count ?? 0])));
  }
  const byFile = new Map<string, WalkedFunction[]>();
  let generatedCount = 0;
  for (const script of after) {
    const file = options.fileOf(script.url);
    if (file === undefined) continue;
    const was = earlier.get(script.url);
    for (const fn of script.functions) {
      const rose = (fn.ranges[0]?.count ?? 0) - (was?.get(keyOf(fn)) ?? 0);
      if (rose <= 0) continue;
      const position = options.positionOf?.(script, keyOf(fn));
      if (position?.generated) {
        generatedCount++;
        continue;
      }
      const walked: WalkedFunction = { name: fn.functionName || "(anonymous)", calls: rose };
      if (position) walked.line = position.line;
      const list = byFile.get(file) ?? [];
      list.push(walked);
      byFile.set(file, list);
    }
  }
  const files = [...byFile]
    .map(([file, functions]) => ({ file, functions: functions.sort(bySourceOrder) }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const all = files.flatMap((f) => f.functions);
  return {
    files,
    fileCount: files.length,
    functionCount: all.length,
    callCount: all.reduce((sum, fn) => sum + fn.calls, 0),
    generatedCount,
  };
}

/** One measured round: the request's walk, and an idle window's of the same shape. */
export interface WalkRound {
  walk: RequestWalk;
  idle: RequestWalk;
}

/**
 * The round to report: the one with the fewest functions. A warm request runs the same functions
 * each time; a round can only gain some, from a timer that fired during it.
 */
export function quietestRound(rounds: readonly WalkRound[]): WalkRound {
  const [first, ...rest] = rounds;
  if (!first) throw new Error("no round measured");
  return rest.reduce((best, r) => (r.walk.functionCount < best.walk.functionCount ? r : best), first);
}

/** Functions of other rounds that the quietest round did not run (`file name:line`): what a timer added. */
export function extrasOf(rounds: readonly WalkRound[], quietest: WalkRound): string[] {
  const names = (walk: RequestWalk) =>
    walk.files.flatMap((f) => f.functions.map((fn) => `${f.file} ${fn.name}:${fn.line ?? "?"}`));
  const kept = new Set(names(quietest.walk));
  return [...new Set(rounds.flatMap((r) => names(r.walk)))].filter((n) => !kept.has(n)).sort();
}

function bySourceOrder(a: WalkedFunction, b: WalkedFunction): number {
  return (a.line ?? 0) - (b.line ?? 0);
}

/**
 * `fileOf` for sources run as they are (tsx): a `file:` URL under `<rootDir>/packages/` and outside
 * any `node_modules`, as a path relative to rootDir. A query or hash a loader appends is ignored.
 */
export function packageSourceFileOf(rootDir: string): (url: string) => string | undefined {
  const root = rootDir.endsWith("/") ? rootDir : `${rootDir}/`;
  return (url) => {
    if (!url.startsWith("file://")) return undefined;
    let path: string;
    try {
      path = decodeURIComponent(new URL(url).pathname);
    } catch {
      return undefined;
    }
    if (!path.startsWith(`${root}packages/`) || path.includes("/node_modules/")) return undefined;
    return path.slice(root.length);
  };
}

/** The walk as text: the totals line, then one line per file (`file (n): name:line ×calls, …`). */
export function formatRequestWalk(walk: RequestWalk): string[] {
  const generated =
    walk.generatedCount > 0 ? `; ${walk.generatedCount} transpiler-generated not counted` : "";
  const lines = [
    `${walk.functionCount} functions in ${walk.fileCount} files (${walk.callCount} calls${generated})`,
  ];
  for (const { file, functions } of walk.files) {
    const names = functions.map((fn) => {
      const at = fn.line === undefined ? "" : `:${fn.line}`;
      return `${fn.name}${at}${fn.calls > 1 ? ` ×${fn.calls}` : ""}`;
    });
    lines.push(`${file} (${functions.length}): ${names.join(", ")}`);
  }
  return lines;
}
