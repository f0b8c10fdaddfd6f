import type { UserRepository } from "../../identity/users/user-repository.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { Route } from "../../web/route-table.js";
import type { SecurityDecisionListAnswer } from "../../web/wire/decision-messages.js";
import { EVIDENCE_RECENT_MAX_LIMIT, type SealedEvidenceStore } from "../evidence/sealed-evidence-store.js";
import type { SealedEvidence } from "../evidence/sealed-evidence-service.js";
import { decisionsAdmin } from "./decisions-admin-access.js";
import { parseSecurityDecisionQuery, type SecurityDecisionQuery } from "./security-decision-query.js";
import { decisionDetailOf, decisionSummaryOf } from "./security-decision-view.js";
import { DECISIONS_CONTRACTS } from "./security-decisions-contracts.js";

/** Where the security-decisions admin API lives. */
export const SECURITY_DECISIONS_PATH = "/platform/admin/api/security-decisions";
export { SECURITY_DECISIONS_AUTHORITY } from "./decisions-admin-access.js";
const MAX_ID = 128;

/** Options of the SecurityDecisionsEndpoints. */
export interface SecurityDecisionsEndpointsOptions {
  readonly evidence: SealedEvidenceStore;
  /** Reads one decision with its seal and (audited) its payload. */
  readonly sealed: Pick<SealedEvidence, "read">;
  /** Resolves a `user` filter given as a username; absent: the filter matches user ids only. */
  readonly users?: Pick<UserRepository, "findByUsername">;
  /** Records refused calls (`decision.admin.denied`). */
  readonly audit: AuditSink;
}

/**
 * The administrators' view of the AI security decisions, JSON, `Cache-Control: no-store`, read
 * from the SealedEvidenceStore (so it lists the decisions whose evidence is kept, the latest
 * `evidence.capacity` by default): `GET <path>` lists them newest first, filtered by `user` (id or
 * username), `action`, `layer`, `since`/`until`, `limit`; `GET <path>/{id}` answers one with its
 * seal and, when sealed, its prompts exactly as sent and the context as sent (an audited read;
 * `sealed: false` and no prompts when the capture rules did not seal it; 404 NOT_FOUND). The endpoints check ROLE_ADMIN
 * themselves (401 AUTHENTICATION_REQUIRED anonymous, 403 ACCESS_DENIED audited otherwise): their
 * path is under no chain's admin rule.
 */
export class SecurityDecisionsEndpoints {
  constructor(private readonly o: SecurityDecisionsEndpointsOptions) {}

  /** The two routes, application routes of the `decisions` feature. */
  routes(): Route[] {
    return [
      {
        method: "GET",
        path: SECURITY_DECISIONS_PATH,
        name: "decisions.admin.list",
        meta: { contract: DECISIONS_CONTRACTS.list },
        description: "Recent AI security decisions, newest first (user, action, layer, since, until, limit)",
        feature: "decisions",
        access: "admin",
        handler: (exchange) => this.list(exchange),
      },
      {
        method: "GET",
        path: `${SECURITY_DECISIONS_PATH}/{id}`,
        name: "decisions.admin.get",
        meta: { contract: DECISIONS_CONTRACTS.get },
        description: "One AI security decision with its seal and, when sealed, its prompts exactly as sent",
        feature: "decisions",
        access: "admin",
        handler: (exchange, params) => this.one(exchange, params.id ?? ""),
      },
    ];
  }

  private async list(exchange: HttpExchange): Promise<void> {
    decisionsAdmin(exchange, this.o.audit);
    const query = parseSecurityDecisionQuery(exchange.query);
    const userIds = await this.userIds(query);
    const kept = await this.o.evidence.recentRecords(EVIDENCE_RECENT_MAX_LIMIT);
    const decisions = kept
      .filter(
        (p) =>
          (userIds === undefined || userIds.has(p.metadata.userId)) &&
          (query.action === undefined || p.metadata.action === query.action) &&
          (query.layer === undefined || p.metadata.layer === query.layer) &&
          (query.since === undefined || p.at >= query.since) &&
          (query.until === undefined || p.at <= query.until),
      )
      .slice(0, query.limit)
      .map(decisionSummaryOf);
    const answer: SecurityDecisionListAnswer = { decisions, limit: query.limit };
    exchange.json(200, answer);
  }

  /** `id` is the path segment, decoded by the route table. */
  private async one(exchange: HttpExchange, id: string): Promise<void> {
    const admin = decisionsAdmin(exchange, this.o.audit);
    if (id.length === 0 || id.length > MAX_ID || /\p{Cc}/u.test(id))
      throw new PlatformError("VALIDATION_FAILED", `id must be 1 to ${MAX_ID} printable characters`, {
        details: { fields: ["id"] },
      });
    const evidence = await this.o.sealed.read(id, {
      principal: admin.username,
      remoteAddress: exchange.remoteAddress,
    });
    if (evidence === undefined) throw new PlatformError("NOT_FOUND", "No such security decision");
    exchange.json(200, decisionDetailOf(evidence));
  }

  private async userIds(query: SecurityDecisionQuery): Promise<Set<string> | undefined> {
    if (query.user === undefined) return undefined;
    const ids = new Set([query.user]);
    const byName = await this.o.users?.findByUsername(query.user);
    if (byName) ids.add(byName.id);
    return ids;
  }
}
