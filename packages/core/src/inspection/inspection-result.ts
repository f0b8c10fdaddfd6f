/** The inspector's version: a new N inspects every package again (results are kept per version). */
export const INSPECTOR_VERSION = "prompt-inspector/1";

/** The ten checks of the spec's table, in its order. */
export const CHECK_CODES = [
  "SEAL_INTEGRITY",
  "BUNDLE_TRACE",
  "DICTIONARY_CONTRACT",
  "DECISION_FACT_MATCH",
  "FACT_ACCURACY",
  "UNKNOWN_DECLARED",
  "PAST_RECORD_NOTATION",
  "SOURCE_TRUTH",
  "SAME_FACT",
  "REASON_MATCH",
] as const;
/** One of CHECK_CODES. */
export type CheckCode = (typeof CHECK_CODES)[number];

/** The checks that hold a prompt to the v20 dictionary: they run only on v20-dictionary-blocks packages. */
export const V20_CHECKS: readonly CheckCode[] = CHECK_CODES.filter(
  (c) => c !== "SEAL_INTEGRITY" && c !== "BUNDLE_TRACE",
);

/** MISMATCH: the item is wrong. UNVERIFIABLE: the item could not be checked (never counted as passing). */
export type FindingKind = "MISMATCH" | "UNVERIFIABLE";

/** Where a finding sits: the prompt (index in the package, its layer), its part and its 1-based line. */
export interface FindingLocation {
  readonly prompt: number;
  readonly layer: "L1" | "L2";
  readonly part: "system" | "user";
  /** 1-based line of the part; absent when the finding concerns the part as a whole. */
  readonly line?: number;
}

/** One problem a check found. */
export interface InspectionFinding {
  readonly check: CheckCode;
  readonly kind: FindingKind;
  /** A stable UPPER_SNAKE reason (`VALUE_DIFFERS`, `REDACTED`, `NOT_SEALED`, ...). */
  readonly reason: string;
  /** What differs, in words (expected and found where both are known). */
  readonly detail: string;
  readonly location?: FindingLocation;
  /** The fact ID the finding concerns, when it concerns one. */
  readonly factId?: string;
  /** The dictionary key (or `past-record:<id>`) the finding concerns, when it concerns one. */
  readonly key?: string;
}

/**
 * How one check ended: PASS (every item matched), MISMATCH or UNVERIFIABLE (the worst of its
 * findings), NOT_APPLICABLE (the layout has no such check), NOT_INTEGRATED (SOURCE_TRUTH without a
 * host PromptFactSourceVerifier: nothing was compared, and the verdict does not count it).
 */
export type CheckStatus = "PASS" | "MISMATCH" | "UNVERIFIABLE" | "NOT_APPLICABLE" | "NOT_INTEGRATED";

/** One check's outcome: its status and how many items it compared. */
export interface CheckOutcome {
  readonly check: CheckCode;
  readonly status: CheckStatus;
  readonly items: number;
}

/** The spec's verdicts. */
export const INSPECTION_VERDICTS = ["PASS", "FAIL", "INCOMPLETE", "NOT_APPLICABLE", "ERROR"] as const;
/** One of INSPECTION_VERDICTS. */
export type InspectionVerdict = (typeof INSPECTION_VERDICTS)[number];

/** The inspection of one evidence package by one inspector version. */
export interface InspectionResult {
  readonly packageId: string;
  /** When the package was captured (epoch milliseconds): the period the listings filter on. */
  readonly capturedAt: number;
  /** When it was inspected (epoch milliseconds). */
  readonly inspectedAt: number;
  /** `prompt-inspector/N`. */
  readonly inspectorVersion: string;
  /** `v20@` and the first 12 hex of the build's v20 dictionary digest (element B2). */
  readonly dictionaryVersion: string;
  /** The layout the package was drawn with, when the catalog knows its bundle. */
  readonly layout?: string;
  readonly verdict: InspectionVerdict;
  /** Every check, in the spec's order (empty for ERROR). */
  readonly checks: readonly CheckOutcome[];
  readonly findings: readonly InspectionFinding[];
  /** ERROR only: why the package could not be inspected. */
  readonly error?: { readonly code: string; readonly detail: string };
  /** The registry release the package's bundle ran as (what canary health counts by), when it names one. */
  readonly release?: InspectedRelease;
}

/** The release a package names, as its result keeps it. */
export interface InspectedRelease {
  readonly registryScope: string;
  readonly promptKey: string;
  readonly promptVersion: string;
  readonly status: string;
  /** When the row's state was approved: tells one CANARY period from a later one of the same version. */
  readonly approvedAt?: number;
}

/** The verdict of a set of check outcomes (docs/prompt-inspection.md, "Verdicts"). */
export function verdictOf(checks: readonly CheckOutcome[]): InspectionVerdict {
  if (checks.some((c) => c.status === "MISMATCH")) return "FAIL";
  if (checks.some((c) => c.status === "UNVERIFIABLE")) return "INCOMPLETE";
  if (checks.some((c) => c.status === "NOT_APPLICABLE")) return "NOT_APPLICABLE";
  return "PASS";
}
