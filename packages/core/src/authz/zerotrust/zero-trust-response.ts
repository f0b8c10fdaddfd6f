import type { Authentication } from "../../identity/authentication/authentication.js";
import { MFA_ERROR_CODES } from "../../mfa/mfa-error-codes.js";
import { AUTHZ_ERROR_CODES } from "../authz-error-codes.js";
import type { ZeroTrustAction } from "./zero-trust-action.js";
import { decisionIdOf } from "./zero-trust-decision-reference.js";
import type { ZeroTrustResolution } from "./zero-trust-resolution.js";
import type { ZeroTrustSettings } from "./zero-trust.properties.js";

/** The codes a zero-trust denial answers with. */
export type ZeroTrustDenialCode =
  | "MFA_CHALLENGE_REQUIRED"
  | "ZERO_TRUST_BLOCKED"
  | "ZERO_TRUST_REVIEW_REQUIRED"
  | "ZERO_TRUST_PENDING_ANALYSIS";

/**
 * The status of each denial code, from the module's own typed tables (zero trust's plugin contributes
 * both tables, so the platform's catalog answers the same).
 */
const DENIAL_STATUS: Readonly<Record<ZeroTrustDenialCode, number>> = {
  MFA_CHALLENGE_REQUIRED: MFA_ERROR_CODES.MFA_CHALLENGE_REQUIRED.status,
  ZERO_TRUST_BLOCKED: AUTHZ_ERROR_CODES.ZERO_TRUST_BLOCKED.status,
  ZERO_TRUST_REVIEW_REQUIRED: AUTHZ_ERROR_CODES.ZERO_TRUST_REVIEW_REQUIRED.status,
  ZERO_TRUST_PENDING_ANALYSIS: AUTHZ_ERROR_CODES.ZERO_TRUST_PENDING_ANALYSIS.status,
};

/** What the PEP answers instead of the route. */
export interface ZeroTrustDenial {
  readonly code: ZeroTrustDenialCode;
  /** From the code tables: 401, 403, 423 or 503. */
  readonly status: number;
  /** The action that denied (PENDING_ANALYSIS also for "no analysis"). */
  readonly action: ZeroTrustAction;
  /** Step-up MFA satisfies it: send the caller to a second factor, then retry. */
  readonly stepUp?: true;
  /** SHADOW mode: audit this denial, then let the request go on. */
  readonly shadow?: true;
  /** Operator-facing (audit, logs): the action, its source and its reason. Never send it to the client. */
  readonly reason: string;
  /** Client-safe text for the error body: what happened and what to do. */
  readonly message: string;
  /**
   * The security decision that wrote the record (`GET /platform/admin/api/security-decisions/{id}`),
   * when one did: the answer names it so the user can name it to an administrator.
   */
  readonly decisionId?: string;
}

/**
 * What a held caller is told: what happened and what to do (step up; wait for or ask for a review;
 * ask an administrator), naming the decision an administrator looks up when there is one.
 */
export function zeroTrustDenialMessage(code: ZeroTrustDenialCode, decisionId?: string): string {
  const it = decisionId === undefined ? "it" : `decision ${decisionId}`;
  switch (code) {
    case "MFA_CHALLENGE_REQUIRED":
      return "Additional verification is required: complete a second factor (step up), then retry";
    case "ZERO_TRUST_BLOCKED":
      return `Access is blocked: ask an administrator to review ${it}`;
    case "ZERO_TRUST_REVIEW_REQUIRED":
      return `Access is held for a security review: wait for it, or ask an administrator to review ${it}`;
    case "ZERO_TRUST_PENDING_ANALYSIS":
      return "Security analysis is in progress; try again shortly";
  }
}

/**
 * The answer for a resolution: undefined (go on) when not evaluated, ALLOW, a satisfied CHALLENGE, or
 * a pending analysis under `pending-analysis=ALLOW`; else
 *
 * | action                             | code                        | status |
 * |------------------------------------|-----------------------------|--------|
 * | BLOCK                              | ZERO_TRUST_BLOCKED          | 403    |
 * | CHALLENGE                          | MFA_CHALLENGE_REQUIRED      | 401, stepUp |
 * | ESCALATE                           | ZERO_TRUST_REVIEW_REQUIRED  | 423    |
 * | PENDING_ANALYSIS / none, CHALLENGE | as CHALLENGE                | 401, stepUp |
 * | PENDING_ANALYSIS / none, DENY      | ZERO_TRUST_PENDING_ANALYSIS | 503    |
 *
 * A CHALLENGE is satisfied when the caller holds an `otp` or `hwk` factor completed at or after the
 * record's `at` (any such factor when there is no record), so one step-up clears it and a factor
 * from before the verdict does not. A denial names the security decision that wrote the record
 * (`decisionId`, read from the record's reason) and says what to do. In SHADOW mode the denial is returned with `shadow: true`: the
 * PEP audits it and goes on (a PEP that ignores the flag fails closed). 5xx PlatformErrors are
 * answered as a generic 500 by errorResponse, so the PEP writes the 503 body itself.
 */
export function zeroTrustDenial(
  resolution: ZeroTrustResolution,
  authentication: Authentication | undefined,
  settings: Pick<ZeroTrustSettings, "pendingAnalysis">,
): ZeroTrustDenial | undefined {
  if (!resolution.evaluated) return undefined;
  const action = resolution.action ?? "PENDING_ANALYSIS";
  switch (action) {
    case "ALLOW":
      return undefined;
    case "BLOCK":
      return denial(resolution, action, "ZERO_TRUST_BLOCKED");
    case "ESCALATE":
      return denial(resolution, action, "ZERO_TRUST_REVIEW_REQUIRED");
    case "CHALLENGE":
      return challenge(resolution, action, authentication);
    case "PENDING_ANALYSIS":
      if (settings.pendingAnalysis === "ALLOW") return undefined;
      if (settings.pendingAnalysis === "CHALLENGE") return challenge(resolution, action, authentication);
      return denial(resolution, action, "ZERO_TRUST_PENDING_ANALYSIS");
  }
}

/** True when `authentication` completed an `otp` or `hwk` factor at or after `since` (epoch ms). */
export function steppedUpSince(authentication: Authentication | undefined, since: number): boolean {
  if (authentication === undefined) return false;
  for (const f of authentication.factors) {
    if ((f.type === "otp" || f.type === "hwk") && f.at >= since) return true;
  }
  return false;
}

function challenge(
  resolution: ZeroTrustResolution,
  action: ZeroTrustAction,
  authentication: Authentication | undefined,
): ZeroTrustDenial | undefined {
  const since = resolution.record?.at ?? Number.NEGATIVE_INFINITY;
  return steppedUpSince(authentication, since)
    ? undefined
    : denial(resolution, action, "MFA_CHALLENGE_REQUIRED");
}

function denial(
  resolution: ZeroTrustResolution,
  action: ZeroTrustAction,
  code: ZeroTrustDenialCode,
): ZeroTrustDenial {
  const record = resolution.record;
  const decisionId = decisionIdOf(record);
  const why =
    record === undefined ? resolution.reason : `${record.source}: ${record.reason ?? "no reason given"}`;
  return Object.freeze({
    code,
    status: DENIAL_STATUS[code],
    action,
    ...(code === "MFA_CHALLENGE_REQUIRED" ? { stepUp: true as const } : {}),
    ...(resolution.mode === "SHADOW" ? { shadow: true as const } : {}),
    reason: `${action} (${why}${resolution.stale ? ", stale" : ""})`,
    message: zeroTrustDenialMessage(code, decisionId),
    ...(decisionId === undefined ? {} : { decisionId }),
  });
}
