import type { AuditSink } from "../../kernel/audit-sink.js";
import { invalid } from "../../policy-center/console-input.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { Route } from "../../web/route-table.js";
import type { RollbackExecution } from "../registry/release-registry.js";
import { releaseStateOf } from "../registry/release-state.js";
import type { EvidenceIntake, ReleaseGovernance, TransitionReceipt } from "../release-governance.js";
import { releaseAdmin } from "./release-admin-access.js";
import { RELEASE_ADMIN_CONTRACTS as C } from "./release-admin-contracts.js";
import {
  RELEASE_EVIDENCE_API,
  RELEASE_HISTORY_API,
  RELEASE_ROLLBACK_API,
  RELEASE_TRANSITION_API,
  RELEASES_API,
} from "./release-admin-paths.js";
import {
  ApprovalBody,
  EvidenceBody,
  EvidenceQuery,
  EXECUTION_KEY,
  HistoryQuery,
  ReleasesQuery,
  releaseBody,
  releaseQuery,
  RollbackBody,
  TransitionBody,
  TransitionQuery,
} from "./release-admin-requests.js";

/** The feature that owns the release API in the route table. */
export const RELEASE_ADMIN_FEATURE = "governance";

/** Options of the ReleaseAdminEndpoints. */
export interface ReleaseAdminEndpointsOptions {
  readonly governance: ReleaseGovernance;
  /** The evidence intake; absent: no evidence routes. */
  readonly evidence?: EvidenceIntake | undefined;
  /** Records refused calls (`release.admin.denied`); the services audit what they change. */
  readonly audit: AuditSink;
}

/**
 * The release admin API (prompt-governance.md, "Endpoints"): list, transition (with `?dryRun=true`),
 * rollback, approve, plus the history and the evidence intake. JSON only, `Cache-Control: no-store`,
 * ROLE_ADMIN checked by the routes themselves before the body is read (401 anonymous, 403 audited
 * otherwise; CSRF is the session chain's). The actor is always the authenticated principal. Statuses:
 * a transition 200 applied, 422 blocked (a dry run the same, nothing recorded); a rollback 200
 * EXECUTED, 202 AWAITING_APPROVAL (the stop is in force), 422 REFUSED; a 422 body is the receipt or
 * execution with `code` and `message` beside `blockers` or `conditions`.
 */
export class ReleaseAdminEndpoints {
  constructor(private readonly o: ReleaseAdminEndpointsOptions) {}

  /** The application routes of the release API. */
  routes(): Route[] {
    const common = { feature: RELEASE_ADMIN_FEATURE, access: "admin" } as const;
    const routes: Route[] = [
      {
        ...common,
        method: "GET",
        path: RELEASES_API,
        name: "governance.releases.list",
        meta: { contract: C.list },
        description: "Registry releases of every scope, or of one (registryScope)",
        handler: (x) => this.list(x),
      },
      {
        ...common,
        method: "POST",
        path: RELEASE_TRANSITION_API,
        name: "governance.releases.transition",
        meta: { contract: C.transition },
        description:
          "A state transition through the release gate (200 applied, 422 blocked; dryRun=true records nothing)",
        handler: (x) => this.transition(x),
      },
      {
        ...common,
        method: "POST",
        path: RELEASE_ROLLBACK_API,
        name: "governance.releases.rollback",
        meta: { contract: C.rollback },
        description: "A rollback or emergency stop (200 EXECUTED, 202 AWAITING_APPROVAL, 422 REFUSED)",
        handler: (x) => this.rollback(x),
      },
      {
        ...common,
        method: "POST",
        path: `${RELEASE_ROLLBACK_API}/{executionKey}/approve`,
        name: "governance.releases.approve",
        meta: { contract: C.approve },
        description: "Another administrator ratifies (or reverts) an emergency stop",
        handler: (x, p) => this.approve(x, p.executionKey ?? ""),
      },
      {
        ...common,
        method: "GET",
        path: RELEASE_HISTORY_API,
        name: "governance.releases.history",
        meta: { contract: C.history },
        description: "The registry history, newest first (registryScope, promptVersion, limit)",
        handler: (x) => this.history(x),
      },
    ];
    if (this.o.evidence === undefined) return routes;
    const evidence = this.o.evidence;
    return [
      ...routes,
      {
        ...common,
        method: "POST",
        path: RELEASE_EVIDENCE_API,
        name: "governance.evidence.submit",
        meta: { contract: C.submitEvidence },
        description: "Records release evidence bound to a bundle hash (201)",
        handler: (x) => this.submitEvidence(x, evidence),
      },
      {
        ...common,
        method: "GET",
        path: RELEASE_EVIDENCE_API,
        name: "governance.evidence.list",
        meta: { contract: C.listEvidence },
        description: "The evidence of a prompt key (promptKey, promptVersion), newest first",
        handler: (x) => this.listEvidence(x, evidence),
      },
    ];
  }

  private async list(exchange: HttpExchange): Promise<void> {
    releaseAdmin(exchange, this.o.audit);
    const query = releaseQuery(ReleasesQuery, exchange.query);
    exchange.json(200, { scopes: await this.o.governance.releases(query.registryScope) });
  }

  private async transition(exchange: HttpExchange): Promise<void> {
    const actor = releaseAdmin(exchange, this.o.audit);
    const dryRun = releaseQuery(TransitionQuery, exchange.query, { blank: "refused" }).dryRun === "true";
    const body = releaseBody(TransitionBody, await exchange.fields(["json"]));
    // Older names are read through the one mapping here too: the service sees the canonical state.
    const target = releaseStateOf(body.targetReleaseStatus) ?? body.targetReleaseStatus;
    const receipt = await this.o.governance.transition({ ...body, targetReleaseStatus: target }, actor, {
      dryRun,
    });
    if (receipt.outcome === "APPLIED") exchange.json(200, { ...receipt });
    else
      exchange.json(422, {
        code: "RELEASE_TRANSITION_BLOCKED",
        message: blockedMessage(receipt),
        ...receipt,
      });
  }

  private async rollback(exchange: HttpExchange): Promise<void> {
    const actor = releaseAdmin(exchange, this.o.audit);
    const body = releaseBody(RollbackBody, await exchange.fields(["json"]));
    writeExecution(exchange, await this.o.governance.rollback(body, actor));
  }

  private async approve(exchange: HttpExchange, executionKey: string): Promise<void> {
    const actor = releaseAdmin(exchange, this.o.audit);
    if (!EXECUTION_KEY.test(executionKey))
      throw invalid("executionKey", "must be RBX- and 1 to 64 letters, digits, '-' or '_'");
    // The body is optional: nothing at all (whatever the Content-Type says) is RATIFY without a rationale.
    const fields = (await exchange.text()) === "" ? {} : await exchange.fields(["json"]);
    const body = releaseBody(ApprovalBody, fields);
    writeExecution(exchange, await this.o.governance.approve(executionKey, body, actor));
  }

  private async history(exchange: HttpExchange): Promise<void> {
    releaseAdmin(exchange, this.o.audit);
    const query = releaseQuery(HistoryQuery, exchange.query);
    exchange.json(200, { entries: await this.o.governance.history(query) });
  }

  private async submitEvidence(exchange: HttpExchange, evidence: EvidenceIntake): Promise<void> {
    const actor = releaseAdmin(exchange, this.o.audit);
    const body = releaseBody(EvidenceBody, await exchange.fields(["json"]));
    exchange.json(201, { ...(await evidence.submit(body, actor)) });
  }

  private async listEvidence(exchange: HttpExchange, evidence: EvidenceIntake): Promise<void> {
    releaseAdmin(exchange, this.o.audit);
    const query = releaseQuery(EvidenceQuery, exchange.query);
    exchange.json(200, { evidence: await evidence.list(query.promptKey, query.promptVersion) });
  }
}

/** The answer's status for an execution: 200 EXECUTED (and approvals), 202 AWAITING_APPROVAL, 422 REFUSED. */
export function executionStatus(execution: RollbackExecution): 200 | 202 | 422 {
  if (execution.status === "REFUSED") return 422;
  return execution.status === "AWAITING_APPROVAL" ? 202 : 200;
}

function writeExecution(exchange: HttpExchange, execution: RollbackExecution): void {
  const status = executionStatus(execution);
  if (status !== 422) {
    exchange.json(status, { ...execution });
    return;
  }
  const failed = execution.conditions.filter((c) => c.outcome === "FAILED").map((c) => c.code);
  exchange.json(422, {
    code: "ROLLBACK_REFUSED",
    message: `The rollback was refused: ${failed.join(", ") || "a condition failed"}; nothing changed`,
    ...execution,
  });
}

function blockedMessage(receipt: TransitionReceipt): string {
  const codes = receipt.blockers.map((b) => b.code).join(", ");
  return receipt.dryRun
    ? `The release gate would block this transition: ${codes}; nothing was recorded`
    : `The release gate blocked the transition: ${codes}; nothing changed`;
}
