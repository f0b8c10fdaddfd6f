import { z } from "zod";
import { defineProperty, type PlatformProperties, prop } from "../../kernel/properties.js";

/** ENFORCE: the PEP answers zero-trust denials; SHADOW: it only audits what it would have denied. */
export type ZeroTrustMode = "ENFORCE" | "SHADOW";

/** What a caller with no verdict (PENDING_ANALYSIS, or no record at all) gets. */
export type ZeroTrustPendingPolicy = "ALLOW" | "CHALLENGE" | "DENY";

const upper = (v: unknown) => (typeof v === "string" ? v.trim().toUpperCase() : v);

/** Master switch of zero trust. */
export const ZEROTRUST_ENABLED = defineProperty({
  key: "security.zerotrust.enabled",
  schema: prop.bool(),
  default: true,
  description:
    "false: no zero-trust action is resolved; every resolution is not evaluated and nothing is denied.",
});

/** ENFORCE or SHADOW. */
export const ZEROTRUST_MODE = defineProperty<ZeroTrustMode>({
  key: "security.zerotrust.mode",
  schema: z.preprocess(
    upper,
    z.enum(["ENFORCE", "SHADOW"], "must be ENFORCE or SHADOW"),
  ) as z.ZodType<ZeroTrustMode>,
  default: "ENFORCE",
  description:
    "ENFORCE: zero-trust denials are answered; SHADOW: they are audited only and the request goes on.",
});

/** Share of requests evaluated. */
export const ZEROTRUST_SAMPLING_RATE = defineProperty({
  key: "security.zerotrust.sampling.rate",
  schema: prop.number(0, 1),
  default: 1,
  description:
    "Share (0..1) of authenticated requests whose zero-trust action is resolved; the rest are not evaluated, " +
    "except that a user BLOCK the hot-path cache already holds is enforced anyway.",
});

/** In-process cache of resolutions. */
export const ZEROTRUST_HOTPATH_ENABLED = defineProperty({
  key: "security.zerotrust.hotpath.enabled",
  schema: prop.bool(),
  default: true,
  description:
    "Cache store reads per subject in process for store.update-interval-seconds (resolveCached answers " +
    "without a Promise); false: every evaluated request reads the store.",
});

/** Initial threat score of a new session (inert). */
export const ZEROTRUST_THREAT_INITIAL = defineProperty({
  key: "security.zerotrust.threat.initial",
  schema: prop.number(0, 1),
  default: 0.3,
  description: "Initial threat score (0..1) of a new session.",
  inert:
    "no per-session threat-scoring pipeline exists yet: verdicts come from the adaptive MFA analyzer, " +
    "hosts and administrators; a session without one is PENDING_ANALYSIS (see pending-analysis)",
});

/** Longest life of a user verdict. */
export const ZEROTRUST_CACHE_TTL_HOURS = defineProperty({
  key: "security.zerotrust.cache.ttl-hours",
  schema: prop.int(1, 8_760),
  default: 24,
  description:
    "Lifetime of a user BLOCK written without a ttl (the blocked list), and the longest ttl any user: record may have.",
});

/** Longest life of a session verdict. */
export const ZEROTRUST_CACHE_SESSION_TTL_MINUTES = defineProperty({
  key: "security.zerotrust.cache.session-ttl-minutes",
  schema: prop.int(1, 1_440),
  default: 30,
  description:
    "Longest ttl of a session: record other than BLOCK; default ttls above it are shortened to it.",
});

/** Life of a session BLOCK (an invalidated session). */
export const ZEROTRUST_CACHE_INVALIDATED_TTL_MINUTES = defineProperty({
  key: "security.zerotrust.cache.invalidated-ttl-minutes",
  schema: prop.int(1, 10_080),
  default: 60,
  description:
    "Lifetime of a session BLOCK written without a ttl (an invalidated session stays refused), and its longest ttl.",
});

/** Whether session verdicts are consulted. */
export const ZEROTRUST_SESSION_TRACKING_ENABLED = defineProperty({
  key: "security.zerotrust.session.tracking-enabled",
  schema: prop.bool(),
  default: true,
  description:
    "A session: record, when one exists, wins over the user: record (except a user BLOCK); false: only user: records count.",
});

/** Budget of one store read. */
export const ZEROTRUST_STORE_TIMEOUT = defineProperty({
  key: "security.zerotrust.store.timeout",
  schema: prop.duration().refine((ms) => ms >= 1 && ms <= 60_000, "must be between 1ms and 60s"),
  default: 5_000,
  description:
    "How long a resolution waits for the store; past it (or when the store throws) the action is " +
    "PENDING_ANALYSIS (reason timeout/error, audited) unless the hot-path cache still holds an unexpired record.",
});

/** How long the hot path trusts a store read. */
export const ZEROTRUST_STORE_UPDATE_INTERVAL_SECONDS = defineProperty({
  key: "security.zerotrust.store.update-interval-seconds",
  schema: prop.int(1, 3_600),
  default: 30,
  description:
    "How long a cached store read serves the hot path (never past the record's expiry); writes of other " +
    "processes are seen within this delay.",
});

/** What no verdict means. */
export const ZEROTRUST_PENDING_ANALYSIS = defineProperty<ZeroTrustPendingPolicy>({
  key: "security.zerotrust.pending-analysis",
  schema: z.preprocess(
    upper,
    z.enum(["ALLOW", "CHALLENGE", "DENY"], "must be ALLOW, CHALLENGE or DENY"),
  ) as z.ZodType<ZeroTrustPendingPolicy>,
  default: "ALLOW",
  description:
    "Answer for a caller with no verdict: ALLOW (nothing denied), CHALLENGE (step-up MFA) or DENY (503 " +
    "ZERO_TRUST_PENDING_ANALYSIS). Default ALLOW: with no analyzer every user is pending.",
});

/** Every zero-trust property of this module (the four thresholds live in mfa/adaptive/risk-thresholds.ts). */
export const ZERO_TRUST_PROPERTIES = [
  ZEROTRUST_ENABLED,
  ZEROTRUST_MODE,
  ZEROTRUST_SAMPLING_RATE,
  ZEROTRUST_HOTPATH_ENABLED,
  ZEROTRUST_THREAT_INITIAL,
  ZEROTRUST_CACHE_TTL_HOURS,
  ZEROTRUST_CACHE_SESSION_TTL_MINUTES,
  ZEROTRUST_CACHE_INVALIDATED_TTL_MINUTES,
  ZEROTRUST_SESSION_TRACKING_ENABLED,
  ZEROTRUST_STORE_TIMEOUT,
  ZEROTRUST_STORE_UPDATE_INTERVAL_SECONDS,
  ZEROTRUST_PENDING_ANALYSIS,
] as const;

/** The zero-trust properties as one typed object, durations in milliseconds. */
export interface ZeroTrustSettings {
  readonly enabled: boolean;
  readonly mode: ZeroTrustMode;
  readonly samplingRate: number;
  readonly hotPathEnabled: boolean;
  readonly threatInitial: number;
  readonly userTtlMaxMs: number;
  readonly sessionTtlMaxMs: number;
  readonly invalidatedSessionTtlMs: number;
  readonly sessionTrackingEnabled: boolean;
  readonly storeTimeoutMs: number;
  readonly updateIntervalMs: number;
  readonly pendingAnalysis: ZeroTrustPendingPolicy;
}

/** Reads every zero-trust property once (the resolver and service keep the result). */
export function zeroTrustSettingsFromProperties(properties: PlatformProperties): ZeroTrustSettings {
  return Object.freeze({
    enabled: properties.get(ZEROTRUST_ENABLED),
    mode: properties.get(ZEROTRUST_MODE),
    samplingRate: properties.get(ZEROTRUST_SAMPLING_RATE),
    hotPathEnabled: properties.get(ZEROTRUST_HOTPATH_ENABLED),
    threatInitial: properties.get(ZEROTRUST_THREAT_INITIAL),
    userTtlMaxMs: properties.get(ZEROTRUST_CACHE_TTL_HOURS) * 3_600_000,
    sessionTtlMaxMs: properties.get(ZEROTRUST_CACHE_SESSION_TTL_MINUTES) * 60_000,
    invalidatedSessionTtlMs: properties.get(ZEROTRUST_CACHE_INVALIDATED_TTL_MINUTES) * 60_000,
    sessionTrackingEnabled: properties.get(ZEROTRUST_SESSION_TRACKING_ENABLED),
    storeTimeoutMs: properties.get(ZEROTRUST_STORE_TIMEOUT),
    updateIntervalMs: properties.get(ZEROTRUST_STORE_UPDATE_INTERVAL_SECONDS) * 1_000,
    pendingAnalysis: properties.get(ZEROTRUST_PENDING_ANALYSIS),
  });
}
