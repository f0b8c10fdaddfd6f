import {
  MAX_REHEARSAL_FINDINGS,
  MAX_REHEARSAL_REASONS,
  type RehearsalContent,
} from "../../governance/evidence/rehearsal-content.js";
import { UNSAFE_TEXT } from "../../kernel/unsafe-text.js";
import { INSPECTION_VERDICTS, INSPECTOR_VERSION, type InspectionFinding } from "../inspection-result.js";
import { REHEARSAL_CHECKS, type RehearsedPackage } from "./rehearse-package.js";

/** What a summary says besides the rehearsed packages. */
export interface RehearsalFrame {
  readonly candidate: RehearsalContent["candidate"];
  readonly dictionaryVersion: string;
  readonly period: RehearsalContent["period"];
  readonly truncated: boolean;
  readonly skipped: RehearsalContent["skipped"];
}

const LINE_CHARS = 300;
const UNSAFE_ALL = new RegExp(UNSAFE_TEXT.source, "gu");

/** `text` cut to `max` characters, each control or format character shown as U+FFFD (the record is shown as is). */
function shown(text: string, max: number): string {
  return text.replace(UNSAFE_ALL, "\uFFFD").slice(0, max) || "(empty)";
}

function checkCounts(results: readonly RehearsedPackage[]): RehearsalContent["checks"] {
  return REHEARSAL_CHECKS.map((check) => {
    const row = { check, pass: 0, mismatch: 0, unverifiable: 0, notApplicable: 0 };
    for (const r of results) {
      const status = r.checks.find((c) => c.check === check)?.status;
      if (status === "PASS") row.pass++;
      else if (status === "MISMATCH") row.mismatch++;
      else if (status === "UNVERIFIABLE") row.unverifiable++;
      else if (status === "NOT_APPLICABLE") row.notApplicable++;
    }
    return row;
  });
}

function reasonCounts(results: readonly RehearsedPackage[]): RehearsalContent["reasons"] {
  const rows = new Map<string, RehearsalContent["reasons"][number]>();
  for (const f of results.flatMap((r) => r.findings)) {
    const key = `${f.check}\u0000${f.kind}\u0000${f.reason}`;
    const row = rows.get(key) ?? { check: f.check, kind: f.kind, reason: f.reason, findings: 0 };
    row.findings++;
    rows.set(key, row);
  }
  const sorted = [...rows.values()].sort(
    (a, b) => b.findings - a.findings || (a.check + a.reason < b.check + b.reason ? -1 : 1),
  );
  if (sorted.length <= MAX_REHEARSAL_REASONS) return sorted;
  const kept = sorted.slice(0, MAX_REHEARSAL_REASONS);
  const last = kept.at(-1)!;
  kept[kept.length - 1] = {
    ...last,
    findings: last.findings + sorted.slice(MAX_REHEARSAL_REASONS).reduce((n, r) => n + r.findings, 0),
  };
  return kept;
}

/** A finding with the rendered line it stands on (the candidate's user prompt of its layer). */
function quoted(result: RehearsedPackage, f: InspectionFinding): RehearsalContent["findings"][number] {
  const location = f.location;
  const render = location && result.renders.find((r) => r.layer === location.layer);
  const line = location?.part === "user" && location.line !== undefined ? location.line : null;
  const text = line !== null && render ? (render.user.split("\n")[line - 1] ?? null) : null;
  return {
    packageId: result.packageId,
    check: f.check,
    kind: f.kind,
    reason: f.reason,
    detail: shown(f.detail, 1_000),
    layer: location?.layer ?? null,
    line,
    text: text === null ? null : shown(text, LINE_CHARS),
  };
}

/** Counts of the renders over budget, and of the sections they cut. */
function budgetCounts(results: readonly RehearsedPackage[]) {
  const omitted = new Map<string, number>();
  let overBudget = 0;
  for (const render of results.flatMap((r) => r.renders)) {
    if (render.overBudget) overBudget++;
    for (const section of render.omitted) omitted.set(section, (omitted.get(section) ?? 0) + 1);
  }
  const rows = [...omitted].map(([section, renders]) => ({ section: shown(section, 128), renders }));
  return { overBudget, omitted: rows.sort((a, b) => b.renders - a.renders).slice(0, 64) };
}

/**
 * The REHEARSAL evidence content of a rehearsal: counts per verdict and per check, findings by
 * reason, the first MAX_REHEARSAL_FINDINGS findings with the prompt lines they stand on (MISMATCH
 * first), and what the budgets cut.
 */
export function summariseRehearsal(
  results: readonly RehearsedPackage[],
  frame: RehearsalFrame,
): RehearsalContent {
  const verdicts = Object.fromEntries(INSPECTION_VERDICTS.map((v) => [v, 0])) as RehearsalContent["verdicts"];
  for (const r of results) verdicts[r.verdict]++;
  const all = results.flatMap((r) => r.findings.map((f) => ({ r, f })));
  const first = [
    ...all.filter(({ f }) => f.kind === "MISMATCH"),
    ...all.filter(({ f }) => f.kind !== "MISMATCH"),
  ].slice(0, MAX_REHEARSAL_FINDINGS);
  return {
    inspectorVersion: INSPECTOR_VERSION,
    dictionaryVersion: frame.dictionaryVersion,
    candidate: frame.candidate,
    period: frame.period,
    checks: checkCounts(results),
    packages: results.length,
    truncated: frame.truncated,
    skipped: frame.skipped,
    verdicts,
    ...budgetCounts(results),
    reasons: reasonCounts(results),
    findings: first.map(({ r, f }) => quoted(r, f)),
  };
}
