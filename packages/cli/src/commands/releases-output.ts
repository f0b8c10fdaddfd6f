import { CliFailure } from "../command-line/cli-command.js";

/** What the CLI reads of a release row (checked before use). */
export interface ReleaseJson {
  registryScope: string;
  promptKey: string;
  promptVersion: string;
  templateKey: string;
  status: string;
  artifactHash: string;
  canaryPercent?: number;
  canaryTenants?: string[];
  canaryResourceFamilies?: string[];
  approval?: { by: string; at: number; rationale: string };
  rollbackState?: { executionKey: string; role: string; status: string };
}

/** What the CLI reads of an emergency stop or rollback execution. */
export interface ExecutionJson {
  executionKey: string;
  registryScope: string;
  promptKey: string;
  fromVersion: string;
  toVersion: string;
  status: string;
  operator: string;
  emergency: boolean;
  conditions: { code: string; outcome: string; detail?: string }[];
  approvalDeadline?: number;
  approvedBy?: string;
}

/** What the CLI reads of a scope's head. */
export interface HeadJson {
  registryScope: string;
  revision: number;
  releases: ReleaseJson[];
  openExecutions: ExecutionJson[];
}

/** What the CLI reads of a transition receipt. */
export interface ReceiptJson {
  outcome: "APPLIED" | "BLOCKED";
  dryRun: boolean;
  promptVersion: string;
  fromStatus: string;
  targetStatus: string;
  blockers: { code: string; detail: string }[];
  deprecated: string[];
  /** A move to CANARY: the share and targets it has (or would have). */
  canary?: CanaryJson;
}

/** A canary's share and targets, as a row, receipt or history entry carries them. */
export interface CanaryJson {
  canaryPercent?: number;
  canaryTenants?: string[];
  canaryResourceFamilies?: string[];
}

/** What the CLI reads of a history entry. */
export interface HistoryJson {
  kind: string;
  registryScope: string;
  promptVersion: string;
  fromStatus?: string;
  toStatus?: string;
  blockers: string[];
  actor: string;
  rationale: string;
  canary?: CanaryJson;
  at: number;
}

const bad = (what: string) => new CliFailure(`The server's answer is not ${what}`, "SERVER_ANSWER_INVALID");
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const strings = (o: Record<string, unknown>, keys: readonly string[]) =>
  keys.every((k) => typeof o[k] === "string");

/** The execution in an answer body, checked field by field. */
export function executionOf(body: unknown): ExecutionJson {
  const ok =
    isObject(body) &&
    strings(body, ["executionKey", "promptKey", "fromVersion", "toVersion", "status", "operator"]) &&
    Array.isArray(body.conditions);
  if (!ok) throw bad("a rollback execution");
  return body as unknown as ExecutionJson;
}

/** The heads in a `GET …/releases` answer. */
export function headsOf(body: unknown): HeadJson[] {
  const scopes = isObject(body) ? body.scopes : undefined;
  if (!Array.isArray(scopes)) throw bad("a release list");
  for (const head of scopes) {
    const ok =
      isObject(head) &&
      typeof head.registryScope === "string" &&
      Array.isArray(head.releases) &&
      Array.isArray(head.openExecutions) &&
      head.releases.every(
        (r) => isObject(r) && strings(r, ["promptKey", "promptVersion", "status", "artifactHash"]),
      );
    if (!ok) throw bad("a release list");
    (head.openExecutions as unknown[]).forEach(executionOf);
  }
  return scopes as HeadJson[];
}

/** The receipt in a transition answer. */
export function receiptOf(body: unknown): ReceiptJson {
  const ok =
    isObject(body) &&
    (body.outcome === "APPLIED" || body.outcome === "BLOCKED") &&
    strings(body, ["fromStatus", "targetStatus", "promptVersion"]) &&
    Array.isArray(body.blockers) &&
    body.blockers.every((b) => isObject(b) && typeof b.code === "string");
  if (!ok) throw bad("a transition receipt");
  return body as unknown as ReceiptJson;
}

/** The entries of a history answer. */
export function historyOf(body: unknown): HistoryJson[] {
  const entries = isObject(body) ? body.entries : undefined;
  const ok =
    Array.isArray(entries) &&
    entries.every(
      (e) => isObject(e) && strings(e, ["kind", "promptVersion", "actor"]) && Array.isArray(e.blockers),
    );
  if (!ok) throw bad("a release history");
  return entries as HistoryJson[];
}

const when = (at: number | undefined) =>
  at !== undefined && Number.isFinite(new Date(at).getTime()) ? new Date(at).toISOString() : "-";

/**
 * A canary's share in words: `canary 10%` or `canary whole scope` (no share set: every requester of
 * the scope), then its tenants and families. Whatever the server sent is checked before it is shown.
 */
export function canaryText(c: CanaryJson): string {
  const list = (v: unknown) =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === "string").join(",") : "";
  const percent = typeof c.canaryPercent === "number" ? `canary ${c.canaryPercent}%` : "canary whole scope";
  const tenants = list(c.canaryTenants) ? ` tenants ${list(c.canaryTenants)}` : "";
  const families = list(c.canaryResourceFamilies) ? ` families ${list(c.canaryResourceFamilies)}` : "";
  return `${percent}${tenants}${families}`;
}

/** One line per release, then one per open emergency stop (UNRATIFIED ones flagged). */
export function headLines(head: HeadJson): string[] {
  const lines = [`${head.registryScope} (revision ${head.revision})`];
  if (head.releases.length === 0) lines.push("  no releases");
  for (const r of head.releases) {
    const canary = r.status === "CANARY" ? `  ${canaryText(r)}` : "";
    const approval = r.approval ? `  by ${r.approval.by} at ${when(r.approval.at)}` : "";
    const rollback = r.rollbackState ? `  ${r.rollbackState.role} of ${r.rollbackState.executionKey}` : "";
    lines.push(
      `  ${r.status.padEnd(10)} ${r.promptKey} ${r.promptVersion}  ${r.artifactHash.slice(0, 12)}${canary}${approval}${rollback}`,
    );
  }
  for (const e of head.openExecutions) lines.push(`  ${stopLine(e)}`);
  return lines;
}

/** An emergency stop or rollback in one line. */
export function stopLine(e: ExecutionJson): string {
  const flag = e.status === "UNRATIFIED" ? "!! UNRATIFIED (past its deadline, still in force)" : e.status;
  const deadline = e.status === "AWAITING_APPROVAL" ? `, approve by ${when(e.approvalDeadline)}` : "";
  return `${flag} ${e.executionKey}: ${e.promptKey} ${e.fromVersion} -> ${e.toVersion} by ${e.operator}${deadline}`;
}

/** A receipt: the outcome line, then each blocker. */
export function receiptLines(r: ReceiptJson): string[] {
  const would = r.dryRun ? "Dry run: would be " : "";
  const head = `${would}${r.outcome} ${r.promptVersion}: ${r.fromStatus} -> ${r.targetStatus}`;
  const deprecated = r.deprecated?.length ? [`  deprecates ${r.deprecated.join(", ")}`] : [];
  const canary = r.canary === undefined ? [] : [`  ${canaryText(r.canary)}`];
  return [head, ...canary, ...r.blockers.map((b) => `  blocked by ${b.code}: ${b.detail}`), ...deprecated];
}

/** An execution: its status line, then every condition with its outcome. */
export function executionLines(e: ExecutionJson): string[] {
  return [
    stopLine(e),
    ...e.conditions.map((c) => `  ${c.outcome.padEnd(14)} ${c.code}${c.detail ? `: ${c.detail}` : ""}`),
  ];
}

/** A history entry in one line. */
export function historyLine(e: HistoryJson): string {
  const move = e.fromStatus
    ? `  ${e.fromStatus}${e.toStatus && e.toStatus !== e.fromStatus ? ` -> ${e.toStatus}` : ""}`
    : "";
  const blockers = e.blockers.length > 0 ? `  [${e.blockers.join(", ")}]` : "";
  const canary = e.canary === undefined ? "" : `  (${canaryText(e.canary)})`;
  return `${when(e.at)} ${e.kind.padEnd(18)} ${e.registryScope} ${e.promptVersion}${move}${canary}${blockers}  by ${e.actor}: ${e.rationale}`;
}
