// V8 precise coverage of this process through the inspector, and source lines for what it reports.
import { Session } from "node:inspector/promises";
import { SourceMap, type SourceMapPayload } from "node:module";
import type { ScriptCoverage, SourcePosition } from "./request-walk.js";

/** Precise coverage running in this process. */
export interface PreciseCoverage {
  /** Takes the coverage since the last take (V8 resets the counters on every take). */
  take(): Promise<ScriptCoverage[]>;
  /**
   * A `positionOf` for `countRequestWalk`: the original source line of a function, through the
   * script's inline source map (tsx writes one), else the line in the script as run. Call once after
   * the measurement: it enables the debugger, which replays every loaded script.
   */
  sourcePositions(
    scripts: readonly ScriptCoverage[],
  ): Promise<(s: ScriptCoverage, offset: number) => SourcePosition | undefined>;
  stop(): Promise<void>;
}

/**
 * Starts precise coverage with call counts and block detail. Start it before the code to measure is
 * loaded: functions compiled (or inlined by the optimiser) before it started may be missed.
 */
export async function startPreciseCoverage(): Promise<PreciseCoverage> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
  return {
    async take() {
      const { result } = await session.post("Profiler.takePreciseCoverage");
      return result as ScriptCoverage[];
    },
    sourcePositions: (scripts) => sourcePositions(session, scripts),
    async stop() {
      await session.post("Profiler.stopPreciseCoverage");
      await session.post("Profiler.disable");
      session.disconnect();
    },
  };
}

/** One script's text and source map, to turn an offset into an original line. */
interface ScriptLines {
  /** Offset at which each generated line starts. */
  lineStarts: number[];
  map: SourceMap | undefined;
}

async function sourcePositions(
  session: Session,
  scripts: readonly ScriptCoverage[],
): Promise<(s: ScriptCoverage, offset: number) => SourcePosition | undefined> {
  const mapUrls = new Map<string, string>();
  session.on("Debugger.scriptParsed", ({ params }) => {
    if (params.sourceMapURL) mapUrls.set(params.scriptId, params.sourceMapURL);
  });
  await session.post("Debugger.enable");
  const byScript = new Map<string, ScriptLines>();
  for (const script of scripts) {
    const { scriptSource } = await session.post("Debugger.getScriptSource", { scriptId: script.scriptId });
    byScript.set(script.scriptId, {
      lineStarts: lineStarts(scriptSource),
      map: inlineSourceMap(mapUrls.get(script.scriptId)),
    });
  }
  await session.post("Debugger.disable");
  return (script, offset) => {
    const lines = byScript.get(script.scriptId);
    if (!lines) return undefined;
    const line = lastIndexAtMost(lines.lineStarts, offset);
    const column = offset - (lines.lineStarts[line] ?? 0);
    if (!lines.map) return { line: line + 1 };
    // An empty entry: nothing of the original source at or before this point of the script.
    const entry = lines.map.findEntry(line, column) as { originalLine?: number };
    if (entry.originalLine === undefined) return { line: line + 1, generated: true };
    return { line: entry.originalLine + 1 };
  };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** Index of the last element ≤ value in an ascending array (0 when none is). */
function lastIndexAtMost(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((sorted[mid] ?? 0) <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The source map of a `data:application/json;base64,` URL; other maps are not read. */
function inlineSourceMap(url: string | undefined): SourceMap | undefined {
  const prefix = /^data:application\/json;(?:charset=utf-?8;)?base64,/i.exec(url ?? "");
  if (!url || !prefix) return undefined;
  const payload = JSON.parse(Buffer.from(url.slice(prefix[0].length), "base64").toString("utf8"));
  return new SourceMap(payload as SourceMapPayload);
}
