import type { Policy } from "../../../packages/core/src/authz/policy/policy.js";
import type { ZeroTrustAction } from "../../../packages/core/src/authz/zerotrust/zero-trust-action.js";
import type { BenchDecision, BenchRequest, CombiningAlgorithmName } from "./bench-types.js";

/** What `build()` is told besides the policies. */
export interface PdpBuildOptions {
  readonly algorithm: CombiningAlgorithmName;
  /** Zero-trust action per user id (ENFORCE); a user missing here has no analysis. */
  readonly actions: ReadonlyMap<string, ZeroTrustAction>;
  /** When every one of `actions` was recorded (epoch ms): a CHALLENGE is cleared by a factor at or after it. */
  readonly actionsRecordedAt: number;
  /** The decision time (epoch ms): fix the platform's Clock here, a second after `actionsRecordedAt`, so no action expires. */
  readonly now: number;
}

/**
 * A PDP the authz bench can drive (`pnpm bench:authz`); test/bench/authz/platform-pdp.ts exports
 * `createPlatformPdp(): PdpUnderTest` (or a promise of one). The bench creates one instance per N.
 *
 * - `build` gets every policy of the workload, executable or not, METHOD targets included, in shuffled
 *   order (createdSeq is the creation order). It may be called again at any time with other policies,
 *   another algorithm or other actions; each call replaces all three (a reload). `buildMs` is the time
 *   the PDP itself spent compiling and swapping in the policies (what the 250 ms goal is about).
 * - `decide` is only called after `build` resolved, one call at a time, and goes through the manager's
 *   `check()` with the audit sink on and zero trust in ENFORCE (`pending-analysis` ALLOW). The caller's
 *   action is `actions.get(authentication.userId)`, recorded at `actionsRecordedAt` (anonymous: not
 *   evaluated). BLOCK and ESCALATE are refused before any policy, CHALLENGE too unless the caller has an
 *   `otp`/`hwk` factor at or after `actionsRecordedAt`; such a refusal has no policyId. Otherwise the
 *   action (undefined: none) feeds the `#ai` functions.
 * - `policyId`: FIRST_APPLICABLE, the first policy (priority ascending, then createdSeq) one of whose URL
 *   targets matches path and method; the other algorithms, the first policy in that order whose effect
 *   is the final outcome and whose condition held; undefined when no policy decided.
 */
export interface PdpUnderTest {
  /** Shown in the report, e.g. `platform DynamicAuthorizationManager.check()`. */
  readonly name: string;
  /** Loads the policies, algorithm and actions; resolves with the rebuild time it measured itself. */
  build(policies: readonly Policy[], options: PdpBuildOptions): Promise<{ buildMs: number }>;
  /** Decides one request. */
  decide(request: BenchRequest): Promise<BenchDecision>;
  /** Optional: denied decisions that reached the audit sink since this instance was created. */
  auditedDenials?(): number | Promise<number>;
  /**
   * Optional: what became of the audit events of every denial this instance answered (timed or
   * not): delivered to the sink, or dropped by a full queue and counted. delivered + dropped = denied
   * means none was lost silently.
   */
  auditStats?(): AuditStats | Promise<AuditStats>;
  /** Optional: releases whatever the instance set up (timers, containers). */
  close?(): Promise<void>;
}

/** The audit accounting of a PDP under test. */
export interface AuditStats {
  readonly denied: number;
  readonly delivered: number;
  readonly dropped: number;
}
