/**
 * Published on the EventBus when a resolution read the store for a caller and found no live action
 * (neither the user's nor the session's record): something may analyse the caller now (the
 * decision pipeline subscribes). At most once per subject per `store.update-interval-seconds` in a
 * process, since the "no record" read is cached that long. Nothing is published on a cache hit,
 * when the store fails, or when the request is not evaluated.
 */
export const ZERO_TRUST_ANALYSIS_MISSING_EVENT = "zerotrust.analysis.missing";

/** The payload of ZERO_TRUST_ANALYSIS_MISSING_EVENT. */
export interface ZeroTrustAnalysisMissingPayload {
  readonly userId: string;
  readonly username: string;
  /** The session handle looked up, when session tracking is on and the request had one. */
  readonly sessionHandle?: string;
}
