import type {
  CheckCode,
  CheckOutcome,
  CheckStatus,
  FindingKind,
  FindingLocation,
  InspectionFinding,
} from "./inspection-result.js";

/** Where and on what a finding sits, besides its reason and detail. */
export interface FindingAt {
  readonly location?: FindingLocation | undefined;
  readonly factId?: string | undefined;
  readonly key?: string | undefined;
}

/** Collects one check's compared items and findings, and answers its outcome. */
export class CheckFindings {
  readonly findings: InspectionFinding[] = [];
  private compared = 0;

  constructor(readonly check: CheckCode) {}

  /** Counts `n` compared items. */
  count(n = 1): void {
    this.compared += n;
  }

  /** Records an item that is wrong. */
  mismatch(reason: string, detail: string, at: FindingAt = {}): void {
    this.add("MISMATCH", reason, detail, at);
  }

  /** Records an item that could not be checked. */
  unverifiable(reason: string, detail: string, at: FindingAt = {}): void {
    this.add("UNVERIFIABLE", reason, detail, at);
  }

  /** The check's outcome: the worst finding, else PASS (or `otherwise` when the check did not compare). */
  outcome(otherwise?: Extract<CheckStatus, "NOT_APPLICABLE" | "NOT_INTEGRATED">): CheckOutcome {
    const kinds = new Set(this.findings.map((f) => f.kind));
    const status: CheckStatus = kinds.has("MISMATCH")
      ? "MISMATCH"
      : kinds.has("UNVERIFIABLE")
        ? "UNVERIFIABLE"
        : (otherwise ?? "PASS");
    return { check: this.check, status, items: this.compared };
  }

  private add(kind: FindingKind, reason: string, detail: string, at: FindingAt): void {
    this.findings.push({
      check: this.check,
      kind,
      reason,
      detail,
      ...(at.location ? { location: at.location } : {}),
      ...(at.factId ? { factId: at.factId } : {}),
      ...(at.key ? { key: at.key } : {}),
    });
  }
}
