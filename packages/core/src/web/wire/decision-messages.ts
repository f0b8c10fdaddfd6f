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

/** A sealed package's seal, as the decision detail shows it. */
export type DecisionSealJson = {
  /** SHA-256 (hex) of the RFC 8785 canonical header (docs/sealed-evidence.md). */
  packageHash: string;
  /** The hash chain the package is sealed into (the instance's id) and its place there. */
  instanceId: string;
  sequence: number;
  link: string;
  /** The first signed checkpoint at or past the package whose signature holds; null when none covers it yet. */
  checkpoint: { sequence: number; at: number; kid: string } | null;
  /** The package hash, the prompts' and context's hashes and the link to its predecessor all hold. */
  intact: boolean;
  /** Why not (PACKAGE_HASH_MISMATCH, PROMPT_HASH_MISMATCH, CONTEXT_HASH_MISMATCH, BROKEN_LINK, PAYLOAD_UNREADABLE, DELETED, ...); null when intact. */
  reason: string | null;
  /** True when the payload (prompts and context) was erased: its key destroyed, its hashes kept. */
  erased: boolean;
};

/**
 * `GET /platform/admin/api/security-decisions/{id}`: one decision; when its package was sealed, its
 * seal, and its prompts exactly as sent and context as sent (an audited read) unless erased or deleted.
 */
export type SecurityDecisionJson = SecurityDecisionSummaryJson & {
  /** False when the capture rules did not seal the decision: no seal, no prompts, no context. */
  sealed: boolean;
  seal: DecisionSealJson | null;
  /** Empty when not sealed, erased or deleted. */
  prompts: readonly { layer: "L1" | "L2"; system: string; user: string }[];
  /** The canonical context the prompts were rendered from, as sent (after any redaction); null when not sealed, erased or deleted. */
  input: Readonly<Record<string, unknown>> | null;
};
