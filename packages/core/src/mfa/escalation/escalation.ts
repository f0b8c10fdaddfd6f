import type { Authentication } from "../../identity/authentication/authentication.js";

/** Where an escalated login stands. PENDING and APPROVED read as EXPIRED once `expiresAt` passed. */
export type EscalationStatus = "PENDING" | "APPROVED" | "REJECTED" | "COMPLETED" | "EXPIRED";

/** Every escalation status, in lifecycle order. */
export const ESCALATION_STATUSES: readonly EscalationStatus[] = Object.freeze([
  "PENDING",
  "APPROVED",
  "REJECTED",
  "COMPLETED",
  "EXPIRED",
]);

/** How long an escalation waits for an administrator (and an approval for its poll) by default: 30 minutes. */
export const DEFAULT_ESCALATION_TTL_MS = 30 * 60_000;

/**
 * A login the MFA policy escalated (decision ESCALATED) and held for administrator review. The
 * primary authentication is kept so that an approval can complete the very login that was held,
 * to the very caller that started it (the caller binding), and only once.
 */
export interface Escalation {
  /** Unguessable id (`ids.secret(16)`); also the first half of the binding cookie. */
  readonly id: string;
  readonly userId: string;
  readonly username: string;
  /** The primary sign-in that was held; the integrator signs this user in on completion. */
  readonly primary: Authentication;
  /** The MFA flow (`mfa`, `mfa_admin`, ...) whose policy escalated. */
  readonly flowTypeName: string;
  /** Why the policy escalated (client-safe: administrators read it). */
  readonly reason: string;
  readonly status: EscalationStatus;
  /** Epoch ms. */
  readonly createdAt: number;
  /** Epoch ms after which an undecided or unclaimed escalation reads as EXPIRED. */
  readonly expiresAt: number;
  /** Username of the administrator who approved or rejected. */
  readonly decidedBy?: string;
  /** Epoch ms of the decision. */
  readonly decidedAt?: number;
  /** Hash of the secret in the caller's `PLATFORM_ESCALATION` cookie; the secret itself is never stored. */
  readonly callerBinding: string;
  /** Where the held login came from, shown to administrators. */
  readonly remoteAddress: string;
  /** Compare-and-set version, bumped by every store write. */
  readonly version: number;
}
