/** Audit event types of the zero-trust module. */
export const ZERO_TRUST_AUDIT = Object.freeze({
  /** An action was written (service, admin API, adaptive MFA). */
  actionSet: "zerotrust.action.set",
  /** A subject's action was removed. */
  actionCleared: "zerotrust.action.cleared",
  /** A write from an event listener failed (the store threw or timed out). */
  actionWriteFailed: "zerotrust.action.write-failed",
  /** A resolution could not read the store in time (reason `timeout`) or at all (`error`). */
  storeUnavailable: "zerotrust.store.unavailable",
  /** Someone without ROLE_ADMIN called the admin API. */
  adminDenied: "zerotrust.admin.denied",
  /** A user BLOCK refused a sign-in, refresh, step-up or `/api/me` (ENFORCE). */
  checkpointDenied: "zerotrust.checkpoint.denied",
  /** What ENFORCE would have refused at a checkpoint, let through in SHADOW mode. */
  checkpointShadow: "zerotrust.checkpoint.shadow",
} as const);
