import {
  ZERO_TRUST_REASON_MAX_LENGTH,
  type ZeroTrustActionService,
} from "../../authz/zerotrust/zero-trust-action-service.js";
import { reasonNamingDecision } from "../../authz/zerotrust/zero-trust-decision-reference.js";
import { zeroTrustSessionSubject, zeroTrustUserSubject } from "../../authz/zerotrust/zero-trust-subject.js";
import type { UserAccount } from "../../identity/users/user-account.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { EventBus } from "../../kernel/event-bus.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import type { Clock } from "../../kernel/clock.js";
import type { PromptInput } from "../../prompts/input/prompt-input.js";
import type { SealedEvidence } from "../evidence/sealed-evidence-service.js";
import type { DecisionHistoryStore } from "../history/decision-history-store.js";
import type { BundleSelection } from "../engine/bundle-selection.js";
import type { DecisionEvent } from "./decision-event.js";
import type { DecisionAction } from "../engine/decision-record.js";
import { DECISION_ACTIONS } from "../../prompts/bundles/output-format.js";
import type { DecisionOutcome } from "./decision-maker.js";
import {
  DECISION_ALERT_EVENT,
  DECISION_PIPELINE_SOURCE,
  type DecisionAlertPayload,
  DECISIONS_AUDIT,
} from "./decisions-audit.js";

/** One decided event, ready to be written. */
export interface DecidedEvent {
  readonly event: DecisionEvent;
  readonly account: UserAccount;
  /** The context as sent to the model (after redaction). */
  readonly input: PromptInput;
  readonly outcome: DecisionOutcome;
  readonly redacted: readonly string[];
  /** The selection the outcome ran (its registry release, if any, goes into the evidence). */
  readonly selection?: Pick<BundleSelection, "release"> | undefined;
}

/** What was written for a decision. */
export interface WrittenDecision {
  readonly decisionId: string;
  /** The action written to zero trust (a last-administrator BLOCK becomes CHALLENGE). */
  readonly action: DecisionAction;
  /** Which writes failed (`zero-trust`, `history`, `evidence`); empty when all landed. */
  readonly failedWrites: readonly string[];
}

/**
 * Writes a decision everywhere it goes: the ZeroTrustActionService (the user, and the session when
 * the event names one; the reason leads with the decision's id, which the held user's answer names), the DecisionHistoryStore, the sealed evidence (the decision's record, and its package of prompts as sent, context and metadata when the capture rules seal it) and the audit trail (`decision.made`). A BLOCK or ESCALATE that would leave
 * no available administrator (the AdministratorGuard behind the ZeroTrustActionService: enabled, not
 * locked, no MFA lockout, no live BLOCK or ESCALATE) is written as CHALLENGE, audited
 * (`decision.last-admin.protected`) and published as a `decisions.alert` event. An administrator's record, or a BLOCK written by anyone else, is never
 * replaced, and a live decision of the pipeline is never lowered (only raised or renewed). One write failing does not stop the others; the audit record names the failed ones.
 */
export class DecisionOutcomeWriter {
  constructor(
    private readonly o: {
      zeroTrust: ZeroTrustActionService;
      history: DecisionHistoryStore;
      /** Records the decision, sealing its package when the capture rules pick it. */
      evidence: Pick<SealedEvidence, "record">;
      audit: AuditSink;
      events: EventBus;
      ids: IdGenerator;
      clock: Clock;
    },
  ) {}

  /** Writes `decided`; never rejects. */
  async write(decided: DecidedEvent): Promise<WrittenDecision> {
    const decisionId = this.o.ids.id();
    const { event, account, outcome } = decided;
    const written = await this.writeZeroTrustGuarded(event, account, outcome, decisionId);
    const action = written.action;
    if (action !== outcome.action) await this.alertLastAdmin(event, account, decisionId, outcome.action);
    // An administrator's record of the user stood: the decision is kept on file, not enforced.
    const kept = await written.result.catch(() => undefined);
    const at = this.o.clock.now();
    const results = await Promise.allSettled([
      written.result,
      this.o.history.append({
        id: decisionId,
        at,
        eventId: event.id,
        eventKind: event.kind,
        userId: account.id,
        subject: account.username,
        ...(event.method ? { method: event.method } : {}),
        ...(event.target ? { target: event.target } : {}),
        ...(event.remoteAddress ? { network: event.remoteAddress } : {}),
        ...(event.device ? { device: event.device } : {}),
        action,
        ...(outcome.riskScore === null ? {} : { riskScore: outcome.riskScore }),
        confidence: outcome.confidence,
        outcome: kept ? "NOT_ENFORCED" : action === outcome.action ? "ENFORCED" : "DOWNGRADED",
      }),
      this.o.evidence.record({
        id: decisionId,
        eventId: event.id,
        ...(event.correlationId === undefined ? {} : { correlationId: event.correlationId }),
        at,
        prompts: outcome.prompts,
        input: decided.input,
        metadata: metadataOf(decided, action),
      }),
    ]);
    const failedWrites = ["zero-trust", "history", "evidence"].filter(
      (_, i) => results[i]!.status === "rejected",
    );
    this.record({
      type: DECISIONS_AUDIT.made,
      outcome: failedWrites.length === 0 ? "success" : "failure",
      principal: account.username,
      ...(event.correlationId === undefined ? {} : { correlationId: event.correlationId }),
      data: {
        decisionId,
        eventId: event.id,
        eventKind: event.kind,
        userId: account.id,
        action,
        ...(action === outcome.action ? {} : { decidedAction: outcome.action }),
        riskScore: outcome.riskScore,
        confidence: outcome.confidence,
        reasons: outcome.reasons.map((r) => r.code),
        layer: outcome.layer,
        bundleVersion: outcome.bundleVersion,
        bundleHash: outcome.bundleHash,
        selectionSource: outcome.selectionSource,
        model: outcome.model.id,
        ...(outcome.floorApplied ? { floorApplied: outcome.floorApplied } : {}),
        ...(outcome.fallback ? { fallback: outcome.fallback } : {}),
        ...(failedWrites.length > 0 ? { failedWrites } : {}),
        ...(kept ? { notEnforced: "an administrator's action on the user stands" } : {}),
      },
    });
    return { decisionId, action, failedWrites };
  }

  /**
   * Writes the decided action; a BLOCK or ESCALATE that the AdministratorGuard refuses (it would leave
   * no available administrator: 409 LAST_ADMINISTRATOR, decided under the guard's lease) is written
   * as CHALLENGE instead. A lease that stayed busy is treated alike: never lock everyone out.
   */
  private async writeZeroTrustGuarded(
    event: DecisionEvent,
    account: UserAccount,
    outcome: DecisionOutcome,
    decisionId: string,
  ): Promise<{ action: DecisionAction; result: Promise<Kept> }> {
    const settle = (write: Promise<Kept>) => {
      write.catch(() => undefined);
      return write;
    };
    try {
      const kept = await this.writeZeroTrust(event, account, outcome, outcome.action, decisionId);
      return { action: outcome.action, result: Promise.resolve(kept) };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const restricts = outcome.action === "BLOCK" || outcome.action === "ESCALATE";
      if (!restricts || (code !== "LAST_ADMINISTRATOR" && code !== "CONFLICT")) {
        return { action: outcome.action, result: settle(Promise.reject(error)) };
      }
      const result = settle(this.writeZeroTrust(event, account, outcome, "CHALLENGE", decisionId));
      await result.catch(() => undefined);
      return { action: "CHALLENGE", result };
    }
  }

  private async alertLastAdmin(
    event: DecisionEvent,
    account: UserAccount,
    decisionId: string,
    decidedAction: DecisionAction,
  ): Promise<void> {
    const payload: DecisionAlertPayload = {
      kind: "LAST_ADMIN_BLOCK_PREVENTED",
      userId: account.id,
      eventId: event.id,
      decisionId,
    };
    this.record({
      type: DECISIONS_AUDIT.lastAdminProtected,
      outcome: "info",
      principal: account.username,
      data: { ...payload, decidedAction, action: "CHALLENGE" },
    });
    await this.o.events.publish(DECISION_ALERT_EVENT, payload);
  }

  private async writeZeroTrust(
    event: DecisionEvent,
    account: UserAccount,
    outcome: DecisionOutcome,
    action: DecisionAction,
    decisionId: string,
  ): Promise<Kept> {
    // The reason leads with the decision's id: the held user's answer names it, and an administrator
    // looks it up at the security-decisions admin API.
    const reason = reasonNamingDecision(decisionId, reasonOf(outcome, action), ZERO_TRUST_REASON_MAX_LENGTH);
    const subjects = [
      zeroTrustUserSubject(account.id),
      ...(event.sessionHandle ? [zeroTrustSessionSubject(event.sessionHandle)] : []),
    ];
    for (const [i, subject] of subjects.entries()) {
      const existing = await this.o.zeroTrust.get(subject);
      // An administrator's word on the user stands, for the user and the session alike: a session
      // record would otherwise override it (and no session write passes the last-administrator rule).
      if (existing?.source === "admin") {
        if (i === 0) return "admin";
        continue;
      }
      if (existing?.action === "BLOCK" && existing.source !== DECISION_PIPELINE_SOURCE) continue;
      // A live decision of the pipeline is never lowered by a later one: a user signing in again (from
      // a new network, say) must not talk a BLOCK, an ESCALATE or a CHALLENGE down. It ends at its
      // expiry, when an administrator lifts it, or (a CHALLENGE) is satisfied by a step-up.
      if (existing?.source === DECISION_PIPELINE_SOURCE && isMilder(action, existing.action)) continue;
      await this.o.zeroTrust.set(subject, action, { source: DECISION_PIPELINE_SOURCE, reason });
    }
    return undefined;
  }

  private record(event: Parameters<AuditSink["record"]>[0]): void {
    try {
      this.o.audit.record(event);
    } catch {
      // A broken sink must not undo the decision.
    }
  }
}

/** Why a decision's action was not written for the user: an administrator's record stands. */
type Kept = "admin" | undefined;

const ORDER: readonly string[] = DECISION_ACTIONS;

/** True when `action` is milder than `existing` (a PENDING_ANALYSIS marker is milder than anything). */
function isMilder(action: DecisionAction, existing: string): boolean {
  return ORDER.indexOf(action) < ORDER.indexOf(existing);
}

function reasonOf(outcome: DecisionOutcome, action: DecisionAction): string {
  const codes = outcome.reasons.map((r) => r.code.replace(/\p{Cc}/gu, " ")).join(",");
  // A fallback decision has no score: no accepted answer gave one.
  const risk = outcome.riskScore === null ? "none" : Math.round(outcome.riskScore * 1000) / 1000;
  return `AI ${action} (risk ${risk}, ${outcome.layer}, bundle ${outcome.bundleVersion}${codes ? `: ${codes}` : ""})`;
}

function metadataOf(decided: DecidedEvent, action: DecisionAction) {
  const { outcome } = decided;
  return {
    eventKind: decided.event.kind,
    userId: decided.account.id,
    action,
    ...(action === outcome.action ? {} : { decidedAction: outcome.action }),
    riskScore: outcome.riskScore,
    confidence: outcome.confidence,
    reasons: outcome.reasons,
    layer: outcome.layer,
    bundleVersion: outcome.bundleVersion,
    bundleHash: outcome.bundleHash,
    selectionSource: outcome.selectionSource,
    stage: "ENFORCE" as const,
    ...(decided.selection?.release ? { release: decided.selection.release } : {}),
    model: outcome.model,
    timings: outcome.timings,
    ...(outcome.floorApplied ? { floorApplied: outcome.floorApplied } : {}),
    ...(outcome.fallback ? { fallback: outcome.fallback } : {}),
    redacted: decided.redacted,
  };
}
