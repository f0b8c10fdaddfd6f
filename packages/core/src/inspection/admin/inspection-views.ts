import type { SealedPayload } from "../../decisions/evidence/sealed-package.js";
import type { InspectionFinding, InspectionResult } from "../inspection-result.js";
import type {
  InspectionFindingJson,
  InspectionPackageSummaryJson,
  InspectionResultJson,
} from "../../web/wire/inspection-messages.js";

/** Longest prompt line a finding carries (a hostile prompt's line is cut, never the whole text). */
const MAX_LINE = 2_000;

/** A result as a listing shows it. */
export function summaryOf(r: InspectionResult): InspectionPackageSummaryJson {
  const failed = new Set(r.findings.filter((f) => f.kind === "MISMATCH").map((f) => f.check));
  return {
    packageId: r.packageId,
    capturedAt: r.capturedAt,
    inspectedAt: r.inspectedAt,
    inspectorVersion: r.inspectorVersion,
    dictionaryVersion: r.dictionaryVersion,
    layout: r.layout ?? null,
    verdict: r.verdict,
    mismatches: r.findings.filter((f) => f.kind === "MISMATCH").length,
    unverifiable: r.findings.filter((f) => f.kind === "UNVERIFIABLE").length,
    failedChecks: r.checks.map((c) => c.check).filter((c) => failed.has(c)),
    error: r.error ?? null,
  };
}

/** A whole result, each finding with the text of the prompt line it stands on (when the payload is there). */
export function resultOf(r: InspectionResult, payload: SealedPayload | null): InspectionResultJson {
  return {
    ...summaryOf(r),
    checks: r.checks.map((c) => ({ check: c.check, status: c.status, items: c.items })),
    findings: r.findings.map((f) => findingOf(f, payload)),
  };
}

function findingOf(f: InspectionFinding, payload: SealedPayload | null): InspectionFindingJson {
  const at = f.location;
  return {
    check: f.check,
    kind: f.kind,
    reason: f.reason,
    detail: f.detail,
    location: at ? { prompt: at.prompt, layer: at.layer, part: at.part, line: at.line ?? null } : null,
    factId: f.factId ?? null,
    key: f.key ?? null,
    promptLine: lineOf(f, payload),
  };
}

function lineOf(f: InspectionFinding, payload: SealedPayload | null): string | null {
  const at = f.location;
  if (payload === null || at?.line === undefined) return null;
  const text = payload.prompts[at.prompt]?.[at.part];
  const line = text?.split("\n")[at.line - 1];
  return line === undefined ? null : line.slice(0, MAX_LINE);
}
