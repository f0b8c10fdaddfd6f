import type { PlatformErrorCode, PlatformErrorDetails } from "../../kernel/error-code-table.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../authentication/authentication.js";
import { missingContributionPrototype } from "../dsl/missing-contribution.js";
import type { ContributedRule } from "./contributed-rule.js";

/** The outcome of an authorization check: an object, not a boolean, so a reason can be audited. */
export interface AuthorizationDecision {
  granted: boolean;
  /**
   * Set when a fresher authentication would cure the denial (a step-up): the chain's hooks may start
   * one, and the challenge builds the error the caller gets.
   */
  stepUp?: StepUpChallenge;
  /** Why (rule or policy description); never shown to clients. */
  reason: string;
  /** The error code a denial answers with (default ACCESS_DENIED), e.g. ZERO_TRUST_BLOCKED. */
  code?: PlatformErrorCode;
  /** Client-safe text for that code (default "Access denied"); never the policy or the reason. */
  message?: string;
  /** Client-safe fields the answer carries beside code and message (e.g. the `decisionId` behind a zero-trust hold). */
  details?: PlatformErrorDetails;
  /** True when the manager already wrote the denial to the AuditSink (the filter then does not). */
  audited?: boolean;
}

/**
 * A denial a signed-in caller can cure by proving a recent factor. The module that understands the
 * factor builds it (the MFA module's `stepUpChallenge`), so identity names no MFA code.
 */
export interface StepUpChallenge {
  /** How recent the missing factor must be. */
  readonly maxAgeMs: number;
  /** The error the caller gets, with the fields of the step-up a chain hook started (none if none did). */
  error(started: object | undefined): PlatformError;
}

/**
 * Decides whether a request may proceed; `anyRequest().access(manager)` plugs one in (the PDP later).
 * A decision known at once may be answered as it is, without a promise (the authorization filter then
 * goes on without waiting); one that needs a lookup answers a promise.
 */
export interface AuthorizationManager {
  check(
    authentication: Authentication | undefined,
    exchange: HttpExchange,
  ): AuthorizationDecision | Promise<AuthorizationDecision>;
}

/**
 * A rule's two answers, made once: granted and refused under its reason. Frozen and shared, so a
 * static rule answers at once, allocating nothing per request.
 */
function verdicts(reason: string): (granted: boolean) => AuthorizationDecision {
  const yes: AuthorizationDecision = Object.freeze({ granted: true, reason });
  const no: AuthorizationDecision = Object.freeze({ granted: false, reason });
  return (granted) => (granted ? yes : no);
}

/** Identity's own static rules: each decides at once, without a promise. */
const ownRules = {
  /** Everyone, signed in or not. */
  permitAll: (): AuthorizationManager => {
    const decide = verdicts("permitAll");
    return { check: () => decide(true) };
  },
  /** No one. */
  denyAll: (): AuthorizationManager => {
    const decide = verdicts("denyAll");
    return { check: () => decide(false) };
  },
  /** Any signed-in user. */
  authenticated: (): AuthorizationManager => {
    const decide = verdicts("authenticated");
    return { check: (a) => decide(a !== undefined) };
  },
  /** Only requests with no authentication. */
  anonymous: (): AuthorizationManager => {
    const decide = verdicts("anonymous");
    return { check: (a) => decide(a === undefined) };
  },
  /** A user holding any of the authorities. */
  hasAnyAuthority: (...authorities: string[]): AuthorizationManager => {
    const decide = verdicts(`hasAnyAuthority(${authorities.join(",")})`);
    return { check: (a) => decide(a?.authorities.some((x) => authorities.includes(x)) ?? false) };
  },
  /** A user holding any of the roles (`ADMIN` means authority `ROLE_ADMIN`). */
  hasAnyRole: (...roles: string[]): AuthorizationManager =>
    ownRules.hasAnyAuthority(...roles.map((r) => (r.startsWith("ROLE_") ? r : `ROLE_${r}`))),
};

/**
 * The static rules plugins contribute, by name (declaration merging; the MFA module adds
 * `recentFactor`). Each is a function of its arguments returning an AuthorizationManager; on a
 * platform whose plugins contribute it (a ContributedRule), it is a method of
 * `authorizeHttpRequests`' rule builder and of `authorizationRules(...)`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging
export interface ContributedRules {}

/** Every static rule: identity's own and the contributed ones. */
export type AuthorizationRules = typeof ownRules & ContributedRules;

/** Identity's own static rules (`rules.permitAll()`, `rules.hasAnyRole("ADMIN")`), the same on every platform. */
export const rules: Readonly<typeof ownRules> = Object.freeze(ownRules);

/**
 * The static rules of a platform whose plugins contribute `contributed`: identity's own, each
 * contributed one by its name (refused, CONFIGURATION_INVALID, when two share a name or one takes an
 * own rule's), and for any other name a method that throws CONFIGURATION_INVALID naming what is missing.
 */
export function authorizationRules(contributed: readonly ContributedRule[]): AuthorizationRules {
  const table: Record<string, unknown> = Object.create(MISSING_RULE);
  Object.assign(table, ownRules);
  const seen = new Map<string, ContributedRule>();
  for (const contribution of contributed) {
    if (seen.get(contribution.name) === contribution) continue;
    if (seen.has(contribution.name) || contribution.name in table)
      throw new PlatformError("CONFIGURATION_INVALID", `The static rule ${contribution.name} already exists`);
    seen.set(contribution.name, contribution);
    table[contribution.name] = contribution.rule;
  }
  return Object.freeze(table) as unknown as AuthorizationRules;
}

const MISSING_RULE = missingContributionPrototype("the static authorization rules");
