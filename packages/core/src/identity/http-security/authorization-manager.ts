import type { PlatformErrorCode, PlatformErrorDetails } from "../../kernel/error-code-table.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../authentication/authentication.js";

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

/** Decides whether a request may proceed; `anyRequest().access(manager)` plugs one in (the PDP later). */
export interface AuthorizationManager {
  check(authentication: Authentication | undefined, exchange: HttpExchange): Promise<AuthorizationDecision>;
}

const decide = (granted: boolean, reason: string): AuthorizationDecision => ({ granted, reason });

/** Identity's own static rules. */
const ownRules = {
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
  /** A user holding any of the roles (`ADMIN` means authority `ROLE_ADMIN`). */
  hasAnyRole: (...roles: string[]): AuthorizationManager =>
    ownRules.hasAnyAuthority(...roles.map((r) => (r.startsWith("ROLE_") ? r : `ROLE_${r}`))),
};

/**
 * The static rules modules contribute, by name (declaration merging; the MFA module adds
 * `recentFactor`). Each is a function of its arguments returning an AuthorizationManager; it becomes
 * `rules.<name>(...)` and `requestMatchers(...).<name>(...)` in `authorizeHttpRequests`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging
export interface ContributedRules {}

/** Every static rule: identity's own and the contributed ones. */
export type AuthorizationRules = typeof ownRules & ContributedRules;

/** The static rules of `authorizeHttpRequests` (contributed rules are added as their modules load). */
export const rules: AuthorizationRules = ownRules as AuthorizationRules;

const contributedNames = new Set<string>();

/** The names of the contributed rules, in contribution order (each a method of `AuthorizedUrl`). */
export function contributedRuleNames(): ReadonlySet<string> {
  return contributedNames;
}

/**
 * Adds a static rule from a module: `rules.<name>` and `AuthorizedUrl.<name>`. The module declares its
 * type on `ContributedRules` and calls this when it loads. The same function again is a no-op; a
 * name already taken is refused.
 */
export function contributeAuthorizationRule<K extends keyof ContributedRules>(
  name: K,
  rule: ContributedRules[K],
): void {
  const table = rules as unknown as Record<string, unknown>;
  if (table[name] === rule) return;
  if (name in table)
    throw new PlatformError("CONFIGURATION_INVALID", `The static rule ${String(name)} already exists`);
  table[name] = rule;
  contributedNames.add(name);
}
