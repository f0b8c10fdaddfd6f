import { currentAuthentication } from "../../identity/authentication/authentication.js";
import type { ChainRoute } from "../../identity/chain/chain-route.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../../identity/authentication/authentication.js";
import type { Escalation } from "./escalation.js";
import type { EscalationPoll, EscalationService } from "./escalation-service.js";
import { MFA_CONTRACTS } from "../mfa-contracts.js";

/** Options of the EscalationAdminEndpoints. */
export interface EscalationAdminEndpointsOptions {
  service: EscalationService;
  /** Where the admin API lives. Default `/admin/api/mfa/escalations`. */
  basePath?: string;
}

/**
 * The administrators' escalation API: `GET <basePath>` lists pending escalations,
 * `POST <basePath>/{id}/approve` and `/reject` decide one. Errors are thrown for the chain's exception
 * translation: AUTHENTICATION_REQUIRED (anonymous), ACCESS_DENIED (not an admin, or their own login),
 * NOT_FOUND, ILLEGAL_STATE_TRANSITION (already decided or expired). CSRF is the chain's job.
 */
export class EscalationAdminEndpoints {
  private readonly basePath: string;

  constructor(private readonly o: EscalationAdminEndpointsOptions) {
    this.basePath = (o.basePath ?? "/admin/api/mfa/escalations").replace(/\/+$/, "");
  }

  /** `GET <basePath>`, `POST <basePath>/{id}/approve` and `/reject` (the id as sent). */
  routes(): ChainRoute[] {
    const common = { feature: "mfa.escalation", access: "admin" } as const;
    return [
      {
        ...common,
        method: "GET",
        path: this.basePath,
        name: "mfa.escalation.list",
        meta: { contract: MFA_CONTRACTS.escalationList },
        description: "Pending escalated sign-ins, for administrators",
        handler: (exchange) => this.list(exchange),
      },
      {
        ...common,
        method: "POST",
        path: `${this.basePath}/*/approve`,
        name: "mfa.escalation.approve",
        meta: { contract: MFA_CONTRACTS.escalationDecide },
        description: "Approves an escalated sign-in (not one's own)",
        handler: (exchange, params) => this.decide(exchange, params["*"]!, "approve"),
      },
      {
        ...common,
        method: "POST",
        path: `${this.basePath}/*/reject`,
        name: "mfa.escalation.reject",
        meta: { contract: MFA_CONTRACTS.escalationDecide },
        description: "Rejects an escalated sign-in",
        handler: (exchange, params) => this.decide(exchange, params["*"]!, "reject"),
      },
    ];
  }

  /** Decides one escalation; an id over 128 characters is no escalation's (404). */
  private async decide(exchange: HttpExchange, id: string, decision: "approve" | "reject"): Promise<void> {
    const admin = requireAuthentication(exchange);
    if (id.length > 128) throw new PlatformError("NOT_FOUND", "No such escalation");
    const decided =
      decision === "approve"
        ? await this.o.service.approve(id, admin)
        : await this.o.service.reject(id, admin);
    exchange.response.headers.set("cache-control", "no-store");
    exchange.json(200, { id: decided.id, status: decided.status, decidedBy: decided.decidedBy ?? null });
  }

  private async list(exchange: HttpExchange): Promise<void> {
    const pending = await this.o.service.listPending(requireAuthentication(exchange));
    exchange.response.headers.set("cache-control", "no-store");
    exchange.json(
      200,
      pending.map((e) => ({
        id: e.id,
        username: e.username,
        reason: e.reason,
        createdAt: e.createdAt,
        expiresAt: e.expiresAt,
        remoteAddress: e.remoteAddress,
      })),
    );
  }
}

/** Options of the EscalationStatusEndpoint. */
export interface EscalationStatusEndpointOptions {
  service: EscalationService;
  /** Where the held client polls. Default `/api/mfa/escalation`. */
  statusUrl?: string;
  /** Seconds a pending client is told to wait before polling again. Default 5. */
  retryAfterSeconds?: number;
  /**
   * Signs the approved user in (by the flow's state type) and answers; called exactly once per
   * escalation. When it leaves the exchange uncommitted, the endpoint answers 200 `{ status: "COMPLETED" }`.
   */
  complete: (exchange: HttpExchange, escalation: Escalation) => Promise<void>;
}

/**
 * The held client's poll (`GET` or `POST <statusUrl>`): 200 PENDING with `retryAfterSeconds`, 403
 * AUTHENTICATION_BLOCKED when rejected, 401 MFA_SESSION_EXPIRED when expired or already completed, 401
 * MFA_SESSION_REQUIRED without a valid binding cookie; the first poll after an approval calls `complete`.
 */
export class EscalationStatusEndpoint {
  private readonly statusUrl: string;
  private readonly retryAfterSeconds: number;

  constructor(private readonly o: EscalationStatusEndpointOptions) {
    this.statusUrl = o.statusUrl ?? "/api/mfa/escalation";
    this.retryAfterSeconds = o.retryAfterSeconds ?? 5;
  }

  /** `GET` and `POST <statusUrl>`. */
  routes(): ChainRoute[] {
    const route = {
      path: this.statusUrl,
      name: "mfa.escalation.status",
      meta: { contract: MFA_CONTRACTS.escalationStatus },
      description: "The held client's poll of its escalated sign-in",
      feature: "mfa.escalation",
      access: "mfa-flow",
      handler: (exchange: HttpExchange) => this.handle(exchange),
    } as const;
    return [
      { ...route, method: "GET" },
      { ...route, method: "POST" },
    ];
  }

  /** Answers the poll (and completes the sign-in on the first poll after an approval). */
  async handle(exchange: HttpExchange): Promise<void> {
    exchange.response.headers.set("cache-control", "no-store");
    let poll: EscalationPoll;
    try {
      poll = await this.o.service.poll(exchange);
    } catch (error) {
      if (!isPlatformError(error) || error.code !== "MFA_SESSION_REQUIRED") throw error;
      exchange.json(401, { code: error.code, message: error.message });
      return;
    }
    const { escalation, completed } = poll;
    if (completed) {
      await this.o.complete(exchange, escalation);
      if (!exchange.response.committed) exchange.json(200, { status: "COMPLETED" });
      return;
    }
    switch (escalation.status) {
      case "PENDING":
        exchange.response.headers.set("retry-after", String(this.retryAfterSeconds));
        exchange.json(200, { status: "PENDING", retryAfterSeconds: this.retryAfterSeconds });
        return;
      case "REJECTED":
        exchange.json(403, {
          code: "AUTHENTICATION_BLOCKED",
          status: "REJECTED",
          message: "An administrator rejected this login",
        });
        return;
      default:
        // EXPIRED, or COMPLETED by an earlier poll: the held login is over either way.
        exchange.json(401, {
          code: "MFA_SESSION_EXPIRED",
          status: escalation.status,
          message:
            escalation.status === "EXPIRED"
              ? "The escalated login was not decided in time"
              : "The escalated login was already completed",
        });
    }
  }
}

function requireAuthentication(exchange: HttpExchange): Authentication {
  const authentication = currentAuthentication(exchange);
  if (!authentication) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
  return authentication;
}
