import { type Authentication, currentAuthentication } from "../../identity/authentication/authentication.js";
import type { ChainRoute } from "../../identity/chain/chain-route.js";
import type { RouteContract } from "../../web/route-contract.js";
import { ZERO_TRUST_ADMIN_CONTRACTS as C } from "./authz-admin-contracts.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { ZERO_TRUST_ACTIONS, type ZeroTrustAction } from "../zerotrust/zero-trust-action.js";
import type { ZeroTrustActionService } from "../zerotrust/zero-trust-action-service.js";
import type { ZeroTrustActionRecord } from "../zerotrust/zero-trust-action-store.js";
import { ZERO_TRUST_AUDIT } from "../zerotrust/zero-trust-audit.js";

/** The authority the zero-trust admin API needs. */
export const ZERO_TRUST_ADMIN_AUTHORITY = "ROLE_ADMIN";

/** Options of the ZeroTrustAdminEndpoints. */
export interface ZeroTrustAdminEndpointsOptions {
  service: ZeroTrustActionService;
  /** Records refused calls (`zerotrust.admin.denied`). */
  audit: AuditSink;
  /** Where the API lives. Default `/admin/api/zerotrust/actions`. */
  basePath?: string;
}

const BODY_FIELDS = new Set(["action", "reason", "ttlSeconds"]);

/**
 * The administrators' zero-trust API, JSON only, `Cache-Control: no-store`:
 * `GET <base>[?limit=1..1000&action=BLOCK]` lists live records newest first (the blocked list is
 * `?action=BLOCK`); `GET <base>/{subject}` reads one (404 NOT_FOUND); `PUT <base>/{subject}` with
 * `{ action, reason?, ttlSeconds? }` writes one (source `admin`) and answers the record;
 * `DELETE <base>/{subject}` answers `{ subject, cleared }`. The subject is `user:<id>` (the `id` of
 * `GET /api/me`), `username:<name>` (stored and answered as that user's `user:<id>`) or
 * `session:<handle>`, URL-encoded or not; `user:<username>` is not a form: PUT answers 404
 * SUBJECT_NOT_FOUND for a `user:` id or a username naming no account, so a typo never answers 200
 * for a record that matches nobody. An empty subject (PUT or DELETE `<base>`) is VALIDATION_FAILED.
 * An unknown action is refused with VALIDATION_FAILED (not mapped to ESCALATE as analyzer output is):
 * an administrator who types "BLOK" must hear about it. Unknown body fields are refused too, so a
 * misspelt `ttl` is not silently ignored. Errors are thrown for the chain's exception translation:
 * AUTHENTICATION_REQUIRED (anonymous), ACCESS_DENIED (no ROLE_ADMIN, audited), VALIDATION_FAILED,
 * SUBJECT_NOT_FOUND, MALFORMED_JSON, MALFORMED_BODY, UNSUPPORTED_MEDIA_TYPE. CSRF and the body size limit are the chain's and the binding's job.
 */
export class ZeroTrustAdminEndpoints {
  private readonly basePath: string;

  constructor(private readonly o: ZeroTrustAdminEndpointsOptions) {
    this.basePath = (o.basePath ?? "/admin/api/zerotrust/actions").replace(/\/+$/, "");
  }

  /** `GET`, `PUT` and `DELETE` on `<base>` and on `<base>/{subject}` (the subject as sent). */
  routes(feature: string): ChainRoute[] {
    const base = this.basePath;
    const route = (
      method: "GET" | "PUT" | "DELETE",
      path: string,
      name: string,
      description: string,
      contract: RouteContract,
    ): ChainRoute => ({
      method,
      path,
      name: `authz.zerotrust.${name}`,
      description,
      meta: { contract },
      feature,
      access: "admin",
      handler: (exchange, params) =>
        params["*"] === undefined ? this.collection(exchange) : this.subject(exchange, params["*"]),
    });
    return [
      route("GET", base, "list", "Lists live zero-trust actions, newest first (limit, action)", C.list),
      route("PUT", base, "set-without-subject", "Refused: 400 VALIDATION_FAILED (no subject)", C.refused),
      route(
        "DELETE",
        base,
        "clear-without-subject",
        "Refused: 400 VALIDATION_FAILED (no subject)",
        C.refused,
      ),
      route("GET", `${base}/*`, "get", "Reads the action on one subject", C.get),
      route("PUT", `${base}/*`, "set", "Sets an action (BLOCK, ESCALATE, ...) on a subject", C.set),
      route("DELETE", `${base}/*`, "clear", "Clears the action on a subject", C.clear),
    ];
  }

  /** `<base>`: the list (GET); a write without a subject is refused. */
  private async collection(exchange: HttpExchange): Promise<void> {
    exchange.response.headers.set("cache-control", "no-store");
    this.requireAdmin(exchange);
    // `<base>/` is `<base>` once canonical: a write without a subject is a bad request, not a 404.
    if (exchange.method !== "GET") throw subjectRequired();
    const records = await this.o.service.list(listOptions(exchange));
    exchange.json(200, records.map(view));
  }

  /** `<base>/{subject}`: read, set or clear one subject's action. */
  private async subject(exchange: HttpExchange, rest: string): Promise<void> {
    const { method } = exchange;
    exchange.response.headers.set("cache-control", "no-store");
    const admin = this.requireAdmin(exchange);
    if (rest.length === 0) throw subjectRequired();
    const subject = await this.o.service.canonicalSubject(decodeSubject(rest));
    if (method === "GET") {
      const record = await this.o.service.get(subject);
      if (!record) throw new PlatformError("NOT_FOUND", "No zero-trust action for this subject");
      exchange.json(200, view(record));
    } else if (method === "PUT") {
      const { action, reason, ttlSeconds } = await this.body(exchange);
      const ttlMs = ttlSeconds === undefined ? undefined : this.ttlMsOf(subject, action, ttlSeconds);
      const record = await this.o.service.set(subject, action, {
        source: "admin",
        actor: admin.username,
        ...(reason === undefined ? {} : { reason }),
        ...(ttlMs === undefined ? {} : { ttlMs }),
      });
      exchange.json(200, view(record));
    } else {
      const cleared = await this.o.service.clear(subject, { source: "admin", actor: admin.username });
      exchange.json(200, { subject, cleared });
    }
  }

  private requireAdmin(exchange: HttpExchange): Authentication {
    const authentication = currentAuthentication(exchange);
    if (!authentication) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    if (authentication.authorities.includes(ZERO_TRUST_ADMIN_AUTHORITY)) return authentication;
    try {
      this.o.audit.record({
        type: ZERO_TRUST_AUDIT.adminDenied,
        outcome: "denied",
        principal: authentication.username,
        remoteAddress: exchange.remoteAddress,
        data: { method: exchange.method },
      });
    } catch {
      // The refusal stands whatever the sink does.
    }
    throw new PlatformError("ACCESS_DENIED", "Only administrators can manage zero-trust actions");
  }

  private async body(
    exchange: HttpExchange,
  ): Promise<{ action: ZeroTrustAction; reason: string | undefined; ttlSeconds: number | undefined }> {
    const fields = await exchange.fields(["json"]);
    const unknown = Object.keys(fields).filter((k) => !BODY_FIELDS.has(k));
    if (unknown.length > 0) {
      throw invalid(
        `Unknown field(s); expected action, reason, ttlSeconds`,
        unknown.slice(0, 10).map((k) => k.slice(0, 64)),
      );
    }
    const action = actionOf(fields.action);
    if (action === undefined) {
      throw new PlatformError("VALIDATION_FAILED", `action must be one of ${ZERO_TRUST_ACTIONS.join(", ")}`, {
        details: { fields: ["action"], allowed: ZERO_TRUST_ACTIONS },
      });
    }
    const reason = fields.reason ?? undefined;
    if (reason !== undefined && typeof reason !== "string")
      throw invalid("reason must be a string", ["reason"]);
    const ttlSeconds = fields.ttlSeconds ?? undefined;
    if (ttlSeconds !== undefined && (typeof ttlSeconds !== "number" || !Number.isSafeInteger(ttlSeconds))) {
      throw invalid("ttlSeconds must be a whole number of seconds", ["ttlSeconds"]);
    }
    return { action, reason, ttlSeconds };
  }

  private ttlMsOf(subject: string, action: ZeroTrustAction, ttlSeconds: number): number {
    const maxTtlSeconds = Math.floor(this.o.service.maxTtlMs(subject, action) / 1000);
    if (ttlSeconds < 1 || ttlSeconds > maxTtlSeconds) {
      throw new PlatformError(
        "VALIDATION_FAILED",
        `ttlSeconds must be 1..${maxTtlSeconds} for this subject and action`,
        {
          details: { fields: ["ttlSeconds"], maxTtlSeconds },
        },
      );
    }
    return ttlSeconds * 1000;
  }
}

function listOptions(exchange: HttpExchange): { limit?: number; action?: ZeroTrustAction } {
  const limit = exchange.query.get("limit");
  const action = exchange.query.get("action");
  const out: { limit?: number; action?: ZeroTrustAction } = {};
  if (limit !== null) {
    if (!/^\d{1,4}$/.test(limit)) throw invalid("limit must be a number 1..1000", ["limit"]);
    out.limit = Number(limit);
  }
  if (action !== null) {
    const parsed = actionOf(action);
    if (parsed === undefined)
      throw invalid(`action must be one of ${ZERO_TRUST_ACTIONS.join(", ")}`, ["action"]);
    out.action = parsed;
  }
  return out;
}

// Strict on purpose: unlike analyzer output, an unknown action from an administrator is an error.
function actionOf(value: unknown): ZeroTrustAction | undefined {
  if (typeof value !== "string" || value.length > 32) return undefined;
  const upper = value.trim().toUpperCase();
  return ZERO_TRUST_ACTIONS.find((a) => a === upper);
}

function decodeSubject(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalid("The subject is not valid URL encoding", ["subject"]);
  }
}

function subjectRequired(): PlatformError {
  return invalid("A subject is required: user:<id>, username:<name> or session:<handle>", ["subject"]);
}

function invalid(message: string, fields: string[]): PlatformError {
  return new PlatformError("VALIDATION_FAILED", message, { details: { fields } });
}

function view(r: ZeroTrustActionRecord): Record<string, unknown> {
  return {
    subject: r.subject,
    action: r.action,
    reason: r.reason ?? null,
    source: r.source,
    at: r.at,
    expiresAt: r.expiresAt,
    version: r.version,
  };
}
