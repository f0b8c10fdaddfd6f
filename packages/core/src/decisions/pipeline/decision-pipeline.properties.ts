import { defineProperty, type PlatformProperties, prop } from "../../kernel/properties.js";

/** Kill switch of the security-decision pipeline. */
export const DECISION_ENABLED = defineProperty({
  key: "platform.security.decision.enabled",
  schema: prop.bool(),
  default: true,
  description:
    "false: no event is decided (each is counted as disabled); actions already written stay until they expire.",
});

/** Events waiting for a decision. */
export const DECISION_QUEUE_CAPACITY = defineProperty({
  key: "platform.security.decision.queue.capacity",
  schema: prop.int(1, 100_000),
  default: 1_000,
  description: "Events waiting for a decision; an event that does not fit is dropped, counted and audited.",
});

/** Decisions run at once. */
export const DECISION_QUEUE_CONCURRENCY = defineProperty({
  key: "platform.security.decision.queue.concurrency",
  schema: prop.int(1, 64),
  default: 2,
  description: "Decisions run at the same time, off the request path.",
});

/** Budget of one decision. */
export const DECISION_TIMEOUT = defineProperty({
  key: "platform.security.decision.timeout",
  schema: prop.duration().refine((ms) => ms >= 1 && ms <= 600_000, "must be between 1ms and 10m"),
  default: 30_000,
  description:
    "Longest time one decision (context, every model call, writes) may take; past it, it is aborted, audited " +
    "and decided again by the in-process analyst. Keep it above the L1 and L2 model timeouts together.",
});

/** Life of the PENDING_ANALYSIS marker written while a decision is pending. */
export const DECISION_PENDING_TTL = defineProperty({
  key: "platform.security.decision.pending-ttl",
  schema: prop.duration().refine((ms) => ms >= 1_000 && ms <= 3_600_000, "must be between 1s and 1h"),
  default: 60_000,
  description:
    "How long the PENDING_ANALYSIS action written for a user awaiting a decision lasts if no decision replaces it.",
});

/** Model calls per minute. */
export const DECISION_CALLS_PER_MINUTE = defineProperty({
  key: "platform.security.decision.calls-per-minute",
  schema: prop.int(0, 1_000_000),
  default: 120,
  description:
    "Model calls allowed per clock minute in this process (routine events: less the high-severity reserve); " +
    "past it an event is decided by the in-process analyst instead (counted fellBack.rate-cap).",
});

/** Model calls per day. */
export const DECISION_CALLS_PER_DAY = defineProperty({
  key: "platform.security.decision.calls-per-day",
  schema: prop.int(0, 100_000_000),
  default: 20_000,
  description:
    "Model calls allowed per UTC day in this process (the cost cap; routine events: less the high-severity " +
    "reserve); past it an event is decided by the in-process analyst instead (counted fellBack.cost-cap).",
});

/** Model calls per user per minute. */
export const DECISION_CALLS_PER_USER_PER_MINUTE = defineProperty({
  key: "platform.security.decision.calls-per-user-per-minute",
  schema: prop.int(0, 1_000_000),
  default: 10,
  description:
    "Model calls one user's events may use per clock minute in this process; past it they are decided by the " +
    "in-process analyst instead (counted fellBack.user-cap).",
});

/** Share of the caps kept for high-severity events. */
export const DECISION_HIGH_SEVERITY_RESERVE = defineProperty({
  key: "platform.security.decision.high-severity-reserve",
  schema: prop.number(0, 1),
  default: 0.25,
  description:
    "Share of calls-per-minute and calls-per-day that only high-severity events (repeated denials, MFA " +
    "failures and lockouts) may use; routine events stop at the rest.",
});

/** A sign-in decided recently from the same network is not decided again. */
export const DECISION_REDECIDE_AFTER = defineProperty({
  key: "platform.security.decision.redecide-after",
  schema: prop.duration().refine((ms) => ms >= 0 && ms <= 86_400_000, "must be between 0 and 1d"),
  default: 600_000,
  description:
    "A completed sign-in of a user whose last decision is younger than this and came from the same " +
    "address (IPv6: the same /64) is not decided again; the decision in force stands. 0: every sign-in is decided.",
});

/** Denials that make an event. */
export const DECISION_DENIALS_THRESHOLD = defineProperty({
  key: "platform.security.decision.denials.threshold",
  schema: prop.int(1, 10_000),
  default: 5,
  description: "Authorization denials of one user within denials.window that ask for a decision.",
});

/** Window of the denial count. */
export const DECISION_DENIALS_WINDOW = defineProperty({
  key: "platform.security.decision.denials.window",
  schema: prop.duration().refine((ms) => ms >= 1_000 && ms <= 86_400_000, "must be between 1s and 1d"),
  default: 60_000,
  description: "Sliding window in which denials.threshold denials of one user are counted.",
});

/** Past decisions in a context. */
export const DECISION_HISTORY_LIMIT = defineProperty({
  key: "platform.security.decision.history.limit",
  schema: prop.int(0, 256),
  default: 20,
  description: "Past decisions of the user the context carries (0: none).",
});

/** Decision records and sealed packages kept in memory. */
export const DECISION_EVIDENCE_CAPACITY = defineProperty({
  key: "platform.security.decision.evidence.capacity",
  schema: prop.int(1, 1_000_000),
  default: 1_000,
  description:
    "Decision records, and sealed packages, the in-memory SealedEvidenceStore keeps, the oldest dropped first (a dropped package is recorded in its chain).",
});

/** External models may see e-mail addresses. */
export const DECISION_REDACTION_ALLOW_EMAIL = defineProperty({
  key: "platform.security.decision.redaction.allow-email",
  schema: prop.bool(),
  default: false,
  description: "true: an external model sees usernames that are e-mail addresses; false: a stable pseudonym.",
});

/** External models may see addresses. */
export const DECISION_REDACTION_ALLOW_ADDRESS = defineProperty({
  key: "platform.security.decision.redaction.allow-address",
  schema: prop.bool(),
  default: false,
  description: "true: an external model sees IP addresses; false: only the network class survives.",
});

/** External models may see free text. */
export const DECISION_REDACTION_ALLOW_FREE_TEXT = defineProperty({
  key: "platform.security.decision.redaction.allow-free-text",
  schema: prop.bool(),
  default: false,
  description:
    "true: an external model sees free-text context (department, notes, evidence) and the query and opaque " +
    "segments (ids, tokens) of request paths; false: removed, each such path segment shown as {id}.",
});

/** Every property of the decision pipeline, for the plugin's list. */
export const DECISION_PIPELINE_PROPERTIES = [
  DECISION_ENABLED,
  DECISION_QUEUE_CAPACITY,
  DECISION_QUEUE_CONCURRENCY,
  DECISION_TIMEOUT,
  DECISION_PENDING_TTL,
  DECISION_CALLS_PER_MINUTE,
  DECISION_CALLS_PER_DAY,
  DECISION_CALLS_PER_USER_PER_MINUTE,
  DECISION_HIGH_SEVERITY_RESERVE,
  DECISION_REDECIDE_AFTER,
  DECISION_DENIALS_THRESHOLD,
  DECISION_DENIALS_WINDOW,
  DECISION_HISTORY_LIMIT,
  DECISION_EVIDENCE_CAPACITY,
  DECISION_REDACTION_ALLOW_EMAIL,
  DECISION_REDACTION_ALLOW_ADDRESS,
  DECISION_REDACTION_ALLOW_FREE_TEXT,
] as const;

/** The pipeline's properties as one typed object, durations in milliseconds. */
export interface DecisionPipelineSettings {
  readonly enabled: boolean;
  readonly queueCapacity: number;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly pendingTtlMs: number;
  readonly callsPerMinute: number;
  readonly callsPerDay: number;
  readonly callsPerUserPerMinute: number;
  readonly highSeverityReserve: number;
  readonly redecideAfterMs: number;
  readonly denialsThreshold: number;
  readonly denialsWindowMs: number;
  readonly historyLimit: number;
  readonly evidenceCapacity: number;
  readonly redaction: {
    readonly allowEmail: boolean;
    readonly allowAddress: boolean;
    readonly allowFreeText: boolean;
  };
}

/** Reads every pipeline property once. */
export function decisionPipelineSettings(properties: PlatformProperties): DecisionPipelineSettings {
  return Object.freeze({
    enabled: properties.get(DECISION_ENABLED),
    queueCapacity: properties.get(DECISION_QUEUE_CAPACITY),
    concurrency: properties.get(DECISION_QUEUE_CONCURRENCY),
    timeoutMs: properties.get(DECISION_TIMEOUT),
    pendingTtlMs: properties.get(DECISION_PENDING_TTL),
    callsPerMinute: properties.get(DECISION_CALLS_PER_MINUTE),
    callsPerDay: properties.get(DECISION_CALLS_PER_DAY),
    callsPerUserPerMinute: properties.get(DECISION_CALLS_PER_USER_PER_MINUTE),
    highSeverityReserve: properties.get(DECISION_HIGH_SEVERITY_RESERVE),
    redecideAfterMs: properties.get(DECISION_REDECIDE_AFTER),
    denialsThreshold: properties.get(DECISION_DENIALS_THRESHOLD),
    denialsWindowMs: properties.get(DECISION_DENIALS_WINDOW),
    historyLimit: properties.get(DECISION_HISTORY_LIMIT),
    evidenceCapacity: properties.get(DECISION_EVIDENCE_CAPACITY),
    redaction: Object.freeze({
      allowEmail: properties.get(DECISION_REDACTION_ALLOW_EMAIL),
      allowAddress: properties.get(DECISION_REDACTION_ALLOW_ADDRESS),
      allowFreeText: properties.get(DECISION_REDACTION_ALLOW_FREE_TEXT),
    }),
  });
}
