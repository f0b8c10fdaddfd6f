// What `/platform/admin/api/security-decisions` answers: the AI security decisions the pipeline
// wrote, as their evidence packages keep them. Times are epoch milliseconds.

/** One decision in the list: what was decided, for whom, how. */
export type SecurityDecisionSummaryJson = {
  /** The decision's id (its evidence package's id). */
  id: string;
  at: number;
  eventId: string;
  /** `SIGN_IN_COMPLETED`, `REQUEST_SAMPLED`, `REPEATED_DENIALS`, `MFA_FAILURE`, `MFA_LOCKOUT`. */
  eventKind: string;
  userId: string;
  /** The action written to zero trust. */
  action: "ALLOW" | "CHALLENGE" | "ESCALATE" | "BLOCK";
  /** The action decided, when the last-administrator rule changed it. */
  decidedAction: string | null;
  /** Null for a fallback decision (no accepted answer scored it). */
  riskScore: number | null;
  confidence: number;
  layer: "L1" | "L2";
  bundleVersion: string;
  bundleHash: string;
  /** BUILD_DEFAULT, CONFIGURATION, REGISTRY, CANARY or SHADOW. */
  selectionSource: string;
  /** ENFORCE: the decision in force; SHADOW: a shadow run's result, recorded only. */
  stage: "ENFORCE" | "SHADOW";
  /** The registry release the bundle ran as (REGISTRY, CANARY, SHADOW), as read when selected; null otherwise. */
  release: {
    registryScope: string;
    promptKey: string;
    promptVersion: string;
    status: "ACTIVE" | "CANARY" | "SHADOW";
    contractVersion: string;
    approvedAt: number | null;
    approvedBy: string | null;
  } | null;
  model: { id: string; external: boolean };
  timings: Readonly<Record<string, number>>;
  floorApplied: string | null;
  fallback: string | null;
  /** Fields masked before an external model saw the context (dotted paths). */
  redacted: readonly string[];
};

/** `GET /platform/admin/api/security-decisions`: newest first. */
export type SecurityDecisionListAnswer = {
  decisions: readonly SecurityDecisionSummaryJson[];
  /** The limit applied. */
  limit: number;
};

/** `GET /platform/admin/api/security-decisions/{id}`: one decision with its prompts exactly as sent. */
export type SecurityDecisionJson = SecurityDecisionSummaryJson & {
  prompts: readonly { layer: "L1" | "L2"; system: string; user: string }[];
  /** The canonical context the prompts were rendered from, as sent (after any redaction). */
  input: Readonly<Record<string, unknown>>;
};
