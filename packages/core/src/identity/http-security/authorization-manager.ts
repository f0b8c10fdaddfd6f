import type { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../authentication/authentication.js";

/** The outcome of an authorization check: an object, not a boolean, so a reason can be audited. */
export interface AuthorizationDecision {
  granted: boolean;
  /** Why (rule or policy description); never shown to clients. */
  reason: string;
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
  /** A user holding any of the roles (`ADMIN` means authority `ROLE_ADMIN`). */
  hasAnyRole: (...roles: string[]): AuthorizationManager =>
    rules.hasAnyAuthority(...roles.map((r) => (r.startsWith("ROLE_") ? r : `ROLE_${r}`))),
};
