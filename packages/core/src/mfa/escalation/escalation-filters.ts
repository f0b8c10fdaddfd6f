import { currentAuthentication } from "../../identity/authentication/authentication.js";
import type { NextFilter, SecurityFilter } from "../../identity/chain/security-filter.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../../identity/authentication/authentication.js";
import type { Escalation } from "./escalation.js";
import type { EscalationPoll, EscalationService } from "./escalation-service.js";

/** Options of the EscalationAdminFilter. */
export interface EscalationAdminFilterOptions {
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
export class EscalationAdminFilter implements SecurityFilter {
  readonly name = "mfa-escalation-admin";
  private readonly basePath: string;
  private readonly decisionPath: RegExp;

  constructor(private readonly o: EscalationAdminFilterOptions) {
    this.basePath = (o.basePath ?? "/admin/api/mfa/escalations").replace(/\/+$/, "");
    this.decisionPath = new RegExp(`^${escapeRegExp(this.basePath)}/([^/]{1,128})/(approve|reject)$`);
  }

  async filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    if (exchange.method === "GET" && exchange.path === this.basePath) return this.list(exchange);
    const match = exchange.method === "POST" ? this.decisionPath.exec(exchange.path) : null;
    if (!match) return next();
    const admin = requireAuthentication(exchange);
    const id = match[1]!;
    const decided =
      match[2] === "approve"
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

/** Options of the EscalationStatusFilter. */
export interface EscalationStatusFilterOptions {
  service: EscalationService;
  /** Where the held client polls. Default `/api/mfa/escalation`. */
  statusUrl?: string;
  /** Seconds a pending client is told to wait before polling again. Default 5. */
  retryAfterSeconds?: number;
  /**
   * Signs the approved user in (by the flow's state type) and answers; called exactly once per
   * escalation. When it leaves the exchange uncommitted, the filter answers 200 `{ status: "COMPLETED" }`.
   */
  complete: (exchange: HttpExchange, escalation: Escalation) => Promise<void>;
}

/**
 * The held client's poll (`GET` or `POST <statusUrl>`): 200 PENDING with `retryAfterSeconds`, 403
 * AUTHENTICATION_BLOCKED when rejected, 401 MFA_SESSION_EXPIRED when expired or already completed, 401
 * MFA_SESSION_REQUIRED without a valid binding cookie; the first poll after an approval calls `complete`.
 */
export class EscalationStatusFilter implements SecurityFilter {
  readonly name = "mfa-escalation-status";
  private readonly statusUrl: string;
  private readonly retryAfterSeconds: number;

  constructor(private readonly o: EscalationStatusFilterOptions) {
    this.statusUrl = o.statusUrl ?? "/api/mfa/escalation";
    this.retryAfterSeconds = o.retryAfterSeconds ?? 5;
  }

  async filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    if (exchange.path !== this.statusUrl || (exchange.method !== "GET" && exchange.method !== "POST")) {
      return next();
    }
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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
