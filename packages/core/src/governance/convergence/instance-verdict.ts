import type { ConvergenceReportJson, ConvergenceVerdict } from "../../web/wire/convergence-messages.js";
import { PLATFORM_GLOBAL_SCOPE, type ReleaseRow } from "../registry/release-registry.js";
import { executingRelease } from "../selection/executing-release.js";
import { changedAt, expectedReleases, type ScopeRows } from "./expected-releases.js";
import type { InstanceHeartbeat, ScopeServing } from "./instance-heartbeat-store.js";

/** One instance's verdict in the convergence report. */
export type InstanceConvergence = ConvergenceReportJson["instances"][number];
/** One instance's verdict for one scope and prompt key. */
export type ScopeConvergence = InstanceConvergence["scopes"][number];

/** What the verdicts are judged against. */
export interface VerdictContext {
  readonly rows: ScopeRows;
  readonly now: number;
  /** A registry change younger than this is PENDING on an instance that serves another bundle. */
  readonly boundMs: number;
  readonly silentAfterMs: number;
}

const ORDER: readonly ConvergenceVerdict[] = ["SILENT", "NOT_FOLLOWING", "STALE", "PENDING", "CONVERGED"];

/** The worse of two verdicts (SILENT worst, CONVERGED best). */
export function worse(a: ConvergenceVerdict, b: ConvergenceVerdict): ConvergenceVerdict {
  return ORDER.indexOf(a) <= ORDER.indexOf(b) ? a : b;
}

const short = (hash: string) => hash.slice(0, 12);
const named = (row: ReleaseRow) => `${row.status} ${row.promptVersion} (${short(row.artifactHash)})`;

/**
 * A mismatch of one expected source, or undefined when the instance serves what the registry says.
 * `ownRow`: the scope has such a release of its own. Without one the instance need not report the
 * source there (the registry selector reports each scope's own releases; the fallback to
 * PLATFORM_GLOBAL's is judged in PLATFORM_GLOBAL's entries), but what it does report must match.
 */
function mismatch(
  source: "REGISTRY" | "CANARY",
  expected: ReleaseRow | undefined,
  entries: readonly ScopeServing[],
  ownRow: boolean,
): string | undefined {
  const served = entries.find((e) => e.source === source);
  if (served === undefined && !ownRow) return undefined;
  if (expected === undefined)
    return served === undefined
      ? undefined
      : `serves ${served.promptVersion} as ${source}, which the registry no longer runs`;
  if (served?.bundleHash === expected.artifactHash) return undefined;
  if (served !== undefined)
    return `serves ${served.promptVersion} (${short(served.bundleHash)}) as ${source}; the registry runs ${named(expected)}`;
  const fallback = entries.find((e) => e.source === "BUILD_DEFAULT");
  return fallback !== undefined
    ? `serves the build default ${fallback.promptVersion} (its build does not run the release, or it has not read the registry); the registry runs ${named(expected)}`
    : `does not serve the registry's ${named(expected)}`;
}

/** The rows of the scope (and prompt key) the instance serves, found by hash: a change to them counts too. */
function servedRows(ctx: VerdictContext, scope: string, promptKey: string, entries: readonly ScopeServing[]) {
  const hashes = new Set(entries.map((e) => e.bundleHash));
  return (ctx.rows.get(scope) ?? []).filter((r) => r.promptKey === promptKey && hashes.has(r.artifactHash));
}

/**
 * One scope and prompt key of an instance: CONVERGED when it serves the registry's ACTIVE (as
 * REGISTRY) and CANARY (as CANARY) hashes and nothing else by those sources; otherwise PENDING while
 * the latest relevant change (the expected rows, the rows it serves, its own start) is younger than
 * the bound, STALE after.
 */
export function scopeVerdict(
  ctx: VerdictContext,
  heartbeat: InstanceHeartbeat,
  scope: string,
  promptKey: string,
  entries: readonly ScopeServing[],
): ScopeConvergence {
  const expected = expectedReleases(ctx.rows, scope, promptKey);
  const own = scope === PLATFORM_GLOBAL_SCOPE ? undefined : (ctx.rows.get(scope) ?? []);
  const owns = (status: "ACTIVE" | "CANARY") =>
    own === undefined || executingRelease(own, promptKey, status) !== undefined;
  const serving = entries.map(({ promptVersion, bundleHash, source }) => ({
    promptVersion,
    bundleHash,
    source,
  }));
  const problems = [
    mismatch("REGISTRY", expected.active, entries, owns("ACTIVE")),
    mismatch("CANARY", expected.canary, entries, owns("CANARY")),
  ].filter((p): p is string => p !== undefined);
  if (problems.length === 0)
    return {
      registryScope: scope,
      promptKey,
      verdict: "CONVERGED",
      reason: "serves what the registry runs",
      serving,
    };
  const relevant = [expected.active, expected.canary, ...servedRows(ctx, scope, promptKey, entries)];
  const since = Math.max(heartbeat.startedAt, ...relevant.map((r) => (r === undefined ? 0 : changedAt(r))));
  const pending = ctx.now - since <= ctx.boundMs;
  const reason = `${problems.join("; ")}${pending ? ` (changed ${ctx.now - since} ms ago, within the bound)` : ""}`;
  return { registryScope: scope, promptKey, verdict: pending ? "PENDING" : "STALE", reason, serving };
}

/** The serving entries grouped by scope and prompt key, SHADOW runs left out (nothing is enforced by them). */
function groups(heartbeat: InstanceHeartbeat): Map<string, ScopeServing[]> {
  const byScope = new Map<string, ScopeServing[]>();
  for (const entry of heartbeat.serving) {
    if (entry.source === "SHADOW") continue;
    const key = `${entry.registryScope}\u0000${entry.promptKey}`;
    byScope.set(key, [...(byScope.get(key) ?? []), entry]);
  }
  return byScope;
}

/**
 * An instance's verdict: SILENT when its last beat is older than `silentAfterMs`; NOT_FOLLOWING when
 * its heartbeat names the CONFIGURATION selector or it serves a CONFIGURATION bundle (the
 * configuration selector does not read the registry, not even its build default); else
 * the worst of its scopes (an instance that reports none is judged as not serving the registry's
 * PLATFORM_GLOBAL releases).
 */
export function instanceVerdict(ctx: VerdictContext, heartbeat: InstanceHeartbeat): InstanceConvergence {
  const grouped = [...groups(heartbeat)].map(([key, entries]) => {
    const [scope, promptKey] = key.split("\u0000") as [string, string];
    return scopeVerdict(ctx, heartbeat, scope, promptKey, entries);
  });
  const base = { instanceId: heartbeat.instanceId, startedAt: heartbeat.startedAt, lastBeatAt: heartbeat.at };
  const scopes = grouped.sort((a, b) =>
    a.registryScope === b.registryScope
      ? a.promptKey < b.promptKey
        ? -1
        : 1
      : a.registryScope < b.registryScope
        ? -1
        : 1,
  );
  if (ctx.now - heartbeat.at > ctx.silentAfterMs)
    return { ...base, scopes, verdict: "SILENT", reason: `no heartbeat for ${ctx.now - heartbeat.at} ms` };
  const configured = heartbeat.serving.find((e) => e.source === "CONFIGURATION");
  if (configured !== undefined || heartbeat.selector === "CONFIGURATION")
    return { ...base, scopes, verdict: "NOT_FOLLOWING", reason: notFollowing(heartbeat) };
  if (scopes.length === 0) return { ...base, scopes, ...emptyVerdict(ctx, heartbeat) };
  const verdict = scopes.reduce<ConvergenceVerdict>((v, s) => worse(v, s.verdict), "CONVERGED");
  const reason =
    verdict === "CONVERGED"
      ? "serves what the registry runs in every scope it reports"
      : scopes
          .filter((s) => s.verdict === verdict)
          .map((s) => `${s.registryScope}: ${s.reason}`)
          .join("; ");
  return { ...base, scopes, verdict, reason };
}

function notFollowing(heartbeat: InstanceHeartbeat): string {
  const served = heartbeat.serving.map((e) => `${e.promptVersion} (${e.source})`).join(", ") || "nothing";
  return `decides with the configuration selector (prompt-bundle.selector=CONFIGURATION), which does not read the registry; serves ${served}`;
}

function emptyVerdict(
  ctx: VerdictContext,
  heartbeat: InstanceHeartbeat,
): Pick<InstanceConvergence, "verdict" | "reason"> {
  const pending = ctx.now - heartbeat.startedAt <= ctx.boundMs;
  return { verdict: pending ? "PENDING" : "STALE", reason: "reports no bundle in any scope" };
}
