import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { type Authentication, currentAuthentication } from "../authentication/authentication.js";
import { SUBJECT_GOES_ON, type SubjectStatusGate } from "../authentication/subject-status-check.js";
import type { ChainRoute } from "../chain/chain-route.js";
import { IDENTITY_CONTRACTS } from "../identity-contracts.js";

/**
 * `GET <url>` (default `/api/me`): who am I — the user id (the one the zero-trust admin API names as
 * `user:<id>`), username, authorities and how the caller is authenticated (session or bearer, the
 * sign-in method, when, which factors); 401 otherwise. The `me` checkpoint runs first, so a blocked
 * caller learns it from the answer's code (403 ZERO_TRUST_BLOCKED) instead of reading its profile.
 */
export class MeEndpoint {
  constructor(
    private readonly url: string,
    private readonly statusCheck?: SubjectStatusGate,
  ) {}

  /** Its one route, on every chain. */
  routes(): ChainRoute[] {
    return [
      {
        method: "GET",
        path: this.url,
        name: "identity.me",
        meta: { contract: IDENTITY_CONTRACTS.me },
        description: "Who am I: id, username, authorities, how and when the caller signed in",
        feature: "identity",
        access: "authenticated",
        handler: (exchange) => this.handle(exchange),
      },
    ];
  }

  /**
   * Answers the caller's profile, or 401. Not an async function: it waits on the `me` checkpoint's
   * promise only when that is not SUBJECT_GOES_ON (decided without waiting); otherwise it answers at
   * once and returns undefined (the route runner then creates no promise for it).
   */
  handle(exchange: HttpExchange): Promise<void> | undefined {
    const a = currentAuthentication(exchange);
    if (!a) return Promise.reject(new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required"));
    exchange.response.headers.set("cache-control", "no-store");
    const checked = this.statusCheck?.({ checkpoint: "me", authentication: a, exchange });
    // Decided without waiting (the request's zero-trust resolution, judged again): answered at once.
    if (checked === undefined || checked === SUBJECT_GOES_ON) {
      answerProfile(exchange, a);
      return undefined;
    }
    return checked.then(() => answerProfile(exchange, a));
  }
}

/**
 * The profile JSON of a frozen Authentication (the session's, shared by every request of the session;
 * the bearer token's, shared by every request presenting it), written once: a frozen caller cannot
 * change, so neither can its profile. Keyed by the object, so it goes when the caller does.
 */
const frozenProfiles = new WeakMap<Authentication, string>();

/** Writes the caller's profile (200); a frozen caller's JSON is made once (`frozenProfiles`). */
function answerProfile(exchange: HttpExchange, a: Authentication): void {
  let json = frozenProfiles.get(a);
  if (json === undefined) {
    json = JSON.stringify(profileOf(a));
    if (isDeeplyFrozen(a)) frozenProfiles.set(a, json);
  }
  // exchange.json, with the JSON already written.
  const response = exchange.response;
  response.status = 200;
  response.headers.set("content-type", "application/json; charset=utf-8");
  response.body = json;
  response.committed = true;
}

/** Whether nothing the profile reads of `a` can change: it, its authorities, its factors and each factor. */
function isDeeplyFrozen(a: Authentication): boolean {
  if (!Object.isFrozen(a) || !Object.isFrozen(a.authorities) || !Object.isFrozen(a.factors)) return false;
  for (const factor of a.factors) if (!Object.isFrozen(factor)) return false;
  return true;
}

/** What `GET /api/me` answers about a caller. */
function profileOf(a: Authentication): Record<string, unknown> {
  const bearer = a as { originalMethod?: string; method: string };
  return {
    id: a.userId,
    username: a.username,
    authorities: [...a.authorities],
    authenticatedBy: a.method === "bearer" ? "bearer" : "session",
    method: a.method === "bearer" ? (bearer.originalMethod ?? "bearer") : a.method,
    authenticatedAt: new Date(a.authenticatedAt).toISOString(),
    factors: a.factors.map((f) => f.type),
  };
}
