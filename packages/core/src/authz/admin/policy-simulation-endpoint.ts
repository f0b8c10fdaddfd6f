import { z } from "zod";
import { type Authentication, currentAuthentication } from "../../identity/authentication/authentication.js";
import { isPathAllowed } from "../../identity/chain/request-firewall.js";
import { type ChainRoute, resourceRoutes } from "../../identity/chain/chain-route.js";
import { jsonAnswer } from "../../web/contract-parts.js";
import { SIMULATION_ANSWER } from "./authz-admin-contracts.js";
import type { UserRepository } from "../../identity/users/user-repository.js";
import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { canonicalPath } from "../../web/canonical-path.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { ZERO_TRUST_ACTIONS, type ZeroTrustAction } from "../zerotrust/zero-trust-action.js";
import type { UrlAuthorizationManager } from "../pdp/url-authorization-manager.js";
import { roleAuthority } from "../expression/authority-functions.js";

const text = (max: number) => z.string().min(1).max(max);

/** The simulator's request: a subject (a user, a set of roles/authorities, or anonymous) and a request. */
const SimulationRequest = z
  .strictObject({
    username: text(200).optional(),
    roles: z.array(text(200)).max(50).optional(),
    authorities: z.array(text(200)).max(50).optional(),
    anonymous: z.boolean().optional(),
    method: z.enum(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]),
    path: text(2048).regex(/^\/[^\s?#]*$/, "must be a path starting with '/' (no query string)"),
    remoteAddress: text(64).optional(),
    zeroTrustAction: z.enum(ZERO_TRUST_ACTIONS as [ZeroTrustAction, ...ZeroTrustAction[]]).optional(),
  })
  .refine(
    (r) =>
      [
        r.username !== undefined,
        r.roles !== undefined || r.authorities !== undefined,
        r.anonymous === true,
      ].filter(Boolean).length === 1,
    "give exactly one subject: username, roles/authorities, or anonymous: true",
  );

/** Options of the PolicySimulationEndpoint. */
export interface PolicySimulationEndpointOptions {
  manager: UrlAuthorizationManager;
  users: UserRepository;
  clock: Clock;
  /** Default `/admin/api/policies/simulate`. */
  path?: string;
}

/**
 * `POST /admin/api/policies/simulate` (ROLE_ADMIN): what the loaded URL policies decide for a
 * subject and a request, with the trail of every policy whose target matched. The path is judged
 * as a real request's would be: canonicalised (`/api/orders/7/` is `/api/orders/7`, echoed as
 * `path`), and a path the request firewall refuses is a VALIDATION_FAILED answer. Static rules of
 * the chain are not part of the answer (they are code, not data). Nothing is audited or changed.
 */
export class PolicySimulationEndpoint {
  private readonly path: string;

  constructor(private readonly o: PolicySimulationEndpointOptions) {
    this.path = o.path ?? "/admin/api/policies/simulate";
  }

  /** `POST <path>`, and any other method 405. */
  routes(feature: string): ChainRoute[] {
    return resourceRoutes(
      { path: this.path, feature, access: "admin", handler: (exchange) => this.handle(exchange) },
      {
        POST: {
          name: "authz.policies.simulate",
          description: "What the loaded URL policies decide for a subject and a request, with the trail",
          contract: {
            body: { schema: SimulationRequest, media: ["json"] },
            responses: { 200: jsonAnswer("The decision and its trail", SIMULATION_ANSWER) },
            errors: ["VALIDATION_FAILED", "NOT_FOUND"],
          },
        },
      },
      { name: "authz.policies.simulate.other" },
    );
  }

  /** Answers one simulation. */
  async handle(exchange: HttpExchange): Promise<void> {
    if (exchange.method !== "POST") {
      exchange.response.headers.set("allow", "POST");
      throw new PlatformError("METHOD_NOT_ALLOWED", "Use POST");
    }
    requireAdmin(exchange);
    const parsed = SimulationRequest.safeParse(await exchange.fields(["json"]));
    if (!parsed.success) {
      throw new PlatformError("VALIDATION_FAILED", "Invalid simulation request", {
        details: { issues: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) },
      });
    }
    const request = parsed.data;
    const path = canonicalPath(request.path);
    if (!isPathAllowed(request.path) || !isPathAllowed(path)) {
      throw new PlatformError("VALIDATION_FAILED", "Invalid simulation request", {
        details: {
          issues: [
            { path: "path", message: "the request firewall refuses this path (400 REQUEST_REJECTED)" },
          ],
        },
      });
    }
    const subject = await this.subject(request);
    const { decision, trail, algorithm } = this.o.manager.explain(
      {
        authentication: subject,
        method: request.method,
        path,
        remoteAddress: request.remoteAddress ?? "127.0.0.1",
      },
      request.zeroTrustAction,
    );
    exchange.response.headers.set("cache-control", "no-store");
    exchange.json(200, {
      algorithm,
      path,
      subject: subject ? { username: subject.username, authorities: subject.authorities } : null,
      decision: {
        granted: decision.granted,
        policyId: decision.policyId ?? null,
        policyName: decision.policyName ?? null,
        effect: decision.effect ?? null,
        reason: decision.reason,
      },
      trail,
    });
  }

  private async subject(request: z.infer<typeof SimulationRequest>): Promise<Authentication | undefined> {
    if (request.anonymous) return undefined;
    const now = this.o.clock.now();
    if (request.username !== undefined) {
      const user = await this.o.users.findByUsername(request.username);
      if (!user) throw new PlatformError("NOT_FOUND", "No such user");
      return {
        userId: user.id,
        username: user.username,
        authorities: [...user.authorities],
        method: "form",
        authenticatedAt: now,
        factors: [{ type: "pwd", at: now }],
      };
    }
    return simulatedSubject(request, now);
  }
}

/**
 * The simulator's subject for a set of roles and authorities: a password sign-in at `now`, named
 * `simulated`, holding each role as `ROLE_<role>` (as `hasRole` reads it) and each authority as given.
 * The Policy Center's preview simulates with the same subject.
 */
export function simulatedSubject(
  given: {
    readonly roles?: readonly string[] | undefined;
    readonly authorities?: readonly string[] | undefined;
  },
  now: number,
): Authentication {
  const roles = (given.roles ?? []).map(roleAuthority);
  return {
    userId: "simulated",
    username: "simulated",
    authorities: [...new Set([...roles, ...(given.authorities ?? [])])],
    method: "form",
    authenticatedAt: now,
    factors: [{ type: "pwd", at: now }],
  };
}

function requireAdmin(exchange: HttpExchange): Authentication {
  const caller = currentAuthentication(exchange);
  if (!caller) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
  if (!caller.authorities.includes("ROLE_ADMIN")) throw new PlatformError("ACCESS_DENIED", "Access denied");
  return caller;
}
