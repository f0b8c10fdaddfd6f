import type { PlatformErrorCode } from "../../kernel/error-code-table.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../authentication/authentication.js";

/** The outcome of an authorization check: an object, not a boolean, so a reason can be audited. */
export interface AuthorizationDecision {
  granted: boolean;
  /** Set when a signed-in user lacks a recent second factor: the filter starts a step-up. */
  stepUp?: { maxAgeMs: number };
  /** Why (rule or policy description); never shown to clients. */
  reason: string;
  /** The error code a denial answers with (default ACCESS_DENIED), e.g. ZERO_TRUST_BLOCKED. */
  code?: PlatformErrorCode;
  /** Client-safe text for that code (default "Access denied"); never the policy or the reason. */
  message?: string;
  /** True when the manager already wrote the denial to the AuditSink (the filter then does not). */
  audited?: boolean;
}

/** Decides whether a request may proceed; `anyRequest().access(manager)` plugs one in (the PDP later). */
export interface AuthorizationManager {
  check(authentication: Authentication | undefined, exchange: HttpExchange): Promise<AuthorizationDecision>;
}

const decide = (granted: boolean, reason: string): AuthorizationDecision => ({ granted, reason });

/** The static rules of `authorizeHttpRequests`. */
export const rules = {
  /** Everyone, signed in or not. */
  permitAll: (): AuthorizationManager => ({ check: async () => decide(true, "permitAll") }),
  /** No one. */
  denyAll: (): AuthorizationManager => ({ check: async () => decide(false, "denyAll") }),
  /** Any signed-in user. */
  authenticated: (): AuthorizationManager => ({
    check: async (a) => decide(a !== undefined, "authenticated"),
  }),
  /** Only requests with no authentication. */
  anonymous: (): AuthorizationManager => ({ check: async (a) => decide(a === undefined, "anonymous") }),
  /** A user holding any of the authorities. */
  hasAnyAuthority: (...authorities: string[]): AuthorizationManager => ({
    check: async (a) =>
      decide(
        a?.authorities.some((x) => authorities.includes(x)) ?? false,
        `hasAnyAuthority(${authorities.join(",")})`,
      ),
  }),
  /**
   * A signed-in user who proved a second factor (OTT code or passkey: amr `otp`/`hwk`) within `maxAgeMs`;
   * one without such a factor gets a step-up challenge (401 MFA_CHALLENGE_REQUIRED).
   */
  recentFactor: (maxAgeMs: number, now: () => number = Date.now): AuthorizationManager => ({
    check: async (a) => {
      if (!a) return decide(false, "recentFactor: anonymous");
      const recent = a.factors.some(
        (f) => (f.type === "otp" || f.type === "hwk") && f.at >= now() - maxAgeMs,
      );
      return recent
        ? decide(true, `recentFactor(${maxAgeMs})`)
        : { ...decide(false, `recentFactor(${maxAgeMs})`), stepUp: { maxAgeMs } };
    },
  }),
  /** A user holding any of the roles (`ADMIN` means authority `ROLE_ADMIN`). */
  hasAnyRole: (...roles: string[]): AuthorizationManager =>
    rules.hasAnyAuthority(...roles.map((r) => (r.startsWith("ROLE_") ? r : `ROLE_${r}`))),
};
