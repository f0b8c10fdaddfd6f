// What the prompt-inspection admin API (`/platform/admin/api/prompt-inspection/...`, issue 32)
// answers and takes. Times are epoch milliseconds. Not re-exported from the wire index (no new core
// export): the console pages and the API's callers read it as JSON, and the pages declare the parts
// they read. docs/prompt-inspection.md ("The admin API") describes every field.

import type { DecisionSealJson } from "./decision-messages.js";

/** A verdict of one inspection. */
export type InspectionVerdictName = "PASS" | "FAIL" | "INCOMPLETE" | "NOT_APPLICABLE" | "ERROR";

/** One of the inspector's ten checks. */
export type InspectionCheckName =
  | "SEAL_INTEGRITY"
  | "BUNDLE_TRACE"
  | "DICTIONARY_CONTRACT"
  | "DECISION_FACT_MATCH"
  | "FACT_ACCURACY"
  | "UNKNOWN_DECLARED"
  | "PAST_RECORD_NOTATION"
  | "SOURCE_TRUTH"
  | "SAME_FACT"
  | "REASON_MATCH";

/** MISMATCH: the item is wrong; UNVERIFIABLE: it could not be checked (never counted as passing). */
export type InspectionFindingKindName = "MISMATCH" | "UNVERIFIABLE";

/** `GET …/prompt-inspection/overview?from&to`: the counts of a capture period (current inspector version). */
export type InspectionOverviewJson = {
  /** The capture period: `from` inclusive, `to` exclusive (default: the 7 days before now). */
  from: number;
  to: number;
  inspectorVersion: string;
  dictionaryVersion: string;
  /** Packages of the period inspected by this inspector version. */
  inspected: number;
  /** True when the period held more results than the overview counts (INSPECTION_OVERVIEW_MAX_RESULTS). */
  truncated: boolean;
  /** Every verdict, zero included. */
  byVerdict: Record<InspectionVerdictName, number>;
  /** Every check, in the spec's order: packages with at least one finding of each kind, and the findings. */
  byCheck: {
    check: InspectionCheckName;
    mismatchPackages: number;
    unverifiablePackages: number;
    mismatchFindings: number;
    unverifiableFindings: number;
  }[];
  /** Findings by check, kind and reason, most frequent first (at most 50 rows). */
  byReason: {
    check: InspectionCheckName;
    kind: InspectionFindingKindName;
    reason: string;
    findings: number;
  }[];
};

/** One inspected package in a listing. */
export type InspectionPackageSummaryJson = {
  packageId: string;
  capturedAt: number;
  inspectedAt: number;
  inspectorVersion: string;
  dictionaryVersion: string;
  /** The layout the package was drawn with, when the catalog knows its bundle. */
  layout: string | null;
  verdict: InspectionVerdictName;
  mismatches: number;
  unverifiable: number;
  /** The checks with at least one MISMATCH finding. */
  failedChecks: InspectionCheckName[];
  /** ERROR only: why the package could not be inspected. */
  error: { code: string; detail: string } | null;
};

/**
 * `GET …/prompt-inspection/packages?verdict&check&block&entry&from&to&limit&cursor`: newest capture
 * first; `next` is the `cursor` of the next page (opaque), null on the last page.
 */
export type InspectionPackagePageJson = {
  packages: InspectionPackageSummaryJson[];
  next: string | null;
};

/** Where a finding sits: the prompt (index, layer), its part and 1-based line. */
export type InspectionFindingLocationJson = {
  prompt: number;
  layer: "L1" | "L2";
  part: "system" | "user";
  /** Null when the finding concerns the part as a whole. */
  line: number | null;
};

/** One finding, with the text of the prompt line it stands on (null when none or the payload is gone). */
export type InspectionFindingJson = {
  check: InspectionCheckName;
  kind: InspectionFindingKindName;
  reason: string;
  detail: string;
  location: InspectionFindingLocationJson | null;
  factId: string | null;
  key: string | null;
  promptLine: string | null;
};

/** A package's seal: the same shape the decision detail shows (DecisionSealJson). */
export type InspectionSealJson = DecisionSealJson;

/** One inspection's full result. */
export type InspectionResultJson = InspectionPackageSummaryJson & {
  checks: {
    check: InspectionCheckName;
    status: "PASS" | "MISMATCH" | "UNVERIFIABLE" | "NOT_APPLICABLE" | "NOT_INTEGRATED";
    items: number;
  }[];
  findings: InspectionFindingJson[];
};

/**
 * `GET …/prompt-inspection/packages/{packageId}` and `POST …/packages/{packageId}/reinspect`: the
 * package's latest result by the current inspector version (null when not inspected yet), its seal,
 * and the prompts as sent (an audited read; null when the payload was erased or deleted).
 */
export type InspectionPackageDetailJson = {
  packageId: string;
  capturedAt: number;
  result: InspectionResultJson | null;
  seal: InspectionSealJson | null;
  prompts: { layer: "L1" | "L2"; system: string; user: string }[] | null;
};

/** `POST …/prompt-inspection/reinspections` body: a capture period (ISO-8601 instants or epoch ms). */
export type ReinspectionRequestJson = {
  from: string | number;
  to: string | number;
};

/** A reinspection of a capture period, worked through by the automatic round. */
export type ReinspectionJobJson = {
  id: string;
  /** RUNNING until every package of the period was inspected again, then DONE. */
  state: "RUNNING" | "DONE";
  from: number;
  to: number;
  requestedBy: string;
  requestedAt: number;
  /** Sealed packages of the period still kept when the job started. */
  total: number;
  /** Packages inspected again so far. */
  inspected: number;
  finishedAt: number | null;
  /** The instance that holds the job (jobs live in that instance's memory). */
  instanceId: string;
};

/** `GET …/prompt-inspection/reinspections` (and the POST's 202 answer): the running or last job; null when none. */
export type ReinspectionStatusJson = {
  job: ReinspectionJobJson | null;
};
