import { AuditSink } from "../../kernel/audit-sink.js";
import type { EventBus, PlatformEvent } from "../../kernel/event-bus.js";
import type { PlatformProperties } from "../../kernel/properties.js";
import {
  type AdaptiveAssessedPayload,
  MFA_ADAPTIVE_ASSESSED_EVENT,
} from "../../mfa/adaptive/ai-adaptive-mfa-policy-provider.js";
import {
  type RiskBand,
  type RiskThresholds,
  riskBandOf,
  riskThresholdsFromProperties,
} from "../../mfa/adaptive/risk-thresholds.js";
import { ESCALATION_EVENTS, type EscalationEventPayload } from "../../mfa/escalation/escalation-events.js";
import type { ZeroTrustAction } from "./zero-trust-action.js";
import { ZeroTrustActionService } from "./zero-trust-action-service.js";
import { ZERO_TRUST_AUDIT } from "./zero-trust-audit.js";
import { zeroTrustUserSubject } from "./zero-trust-subject.js";

/** The `source` of the actions this listener writes. */
export const ADAPTIVE_MFA_SOURCE = "adaptive-mfa";

/** The zero-trust action of a risk band: strict → ESCALATE, required → CHALLENGE, anything lower → ALLOW. */
export function zeroTrustActionOfBand(band: RiskBand): ZeroTrustAction {
  return band === "strict" ? "ESCALATE" : band === "required" ? "CHALLENGE" : "ALLOW";
}

/**
 * Turns adaptive MFA assessments into zero-trust actions for the user (`user:<userId>`), by the
 * `security.zerotrust.thresholds.*` bands: strict → ESCALATE, required → CHALLENGE, lower → ALLOW
 * (the "elevated" band already challenged at sign-in, so afterwards the user is allowed), with the
 * default ttls (ALLOW 15 s, CHALLENGE 30 min, ESCALATE 5 min). The assessment is published before
 * the user completes the sign-in's second factor, so that factor (at or after the record) satisfies
 * the CHALLENGE. It never replaces a BLOCK or an administrator's record. When an administrator
 * approves an escalated login (`mfa.escalation.approved`), the user's adaptive ESCALATE is cleared,
 * so the approved user is not held again with 423.
 *
 * Handlers return at once (the bus awaits listeners, and a sign-in must not wait for this store);
 * each write is bounded by `store.timeout`; failures are audited as `zerotrust.action.write-failed`.
 */
export class AdaptiveMfaZeroTrustListener {
  private readonly thresholds: RiskThresholds;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly service: ZeroTrustActionService,
    private readonly audit: AuditSink,
    properties: PlatformProperties,
  ) {
    this.thresholds = riskThresholdsFromProperties(properties);
  }

  /** Subscribes to `mfa.adaptive.assessed` and `mfa.escalation.approved`; returns the unsubscribe function. */
  subscribe(events: EventBus): () => void {
    const offAssessed = events.on(MFA_ADAPTIVE_ASSESSED_EVENT, (e) => this.onAssessed(e));
    const offApproved = events.on(ESCALATION_EVENTS.approved, (e) => this.onApproved(e));
    return () => {
      offAssessed();
      offApproved();
    };
  }

  /** Resolves when every write started so far has settled (tests, and a stop hook). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private onAssessed(event: PlatformEvent<unknown>): void {
    const p = event.payload as Partial<AdaptiveAssessedPayload> | undefined;
    const score = p?.score;
    if (typeof p?.userId !== "string" || typeof score !== "number" || !(score >= 0 && score <= 1)) {
      this.failed(undefined, "invalid-payload");
      return;
    }
    const band = riskBandOf(score, this.thresholds);
    const action = zeroTrustActionOfBand(band);
    const analyzer = typeof p.analyzer === "string" ? clean(p.analyzer) : "unknown";
    const reason = `adaptive MFA: ${band} risk (score ${Math.round(score * 10_000) / 10_000}, ${analyzer})`;
    const subject = zeroTrustUserSubject(p.userId);
    this.track(subject, async () => {
      const existing = await this.service.get(subject);
      if (existing && (existing.action === "BLOCK" || existing.source === "admin")) return;
      await this.service.set(subject, action, { source: ADAPTIVE_MFA_SOURCE, reason });
    });
  }

  private onApproved(event: PlatformEvent<unknown>): void {
    const p = event.payload as Partial<EscalationEventPayload> | undefined;
    if (typeof p?.userId !== "string") {
      this.failed(undefined, "invalid-payload");
      return;
    }
    const subject = zeroTrustUserSubject(p.userId);
    const actor = typeof p.decidedBy === "string" ? clean(p.decidedBy) : ADAPTIVE_MFA_SOURCE;
    this.track(subject, async () => {
      const existing = await this.service.get(subject);
      if (existing?.action !== "ESCALATE" || existing.source !== ADAPTIVE_MFA_SOURCE) return;
      await this.service.clear(subject, { source: ADAPTIVE_MFA_SOURCE, actor });
    });
  }

  private track(subject: string, work: () => Promise<void>): void {
    const timeoutMs = this.service.settings.storeTimeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const run = Promise.race([work().then(() => "done" as const), deadline])
      .then(
        (outcome) => {
          if (outcome === "timeout") this.failed(subject, "timeout");
        },
        (error: unknown) => this.failed(subject, "error", error),
      )
      .finally(() => {
        clearTimeout(timer);
        this.pending.delete(run);
      });
    this.pending.add(run);
  }

  private failed(subject: string | undefined, reason: string, error?: unknown): void {
    try {
      this.audit.record({
        type: ZERO_TRUST_AUDIT.actionWriteFailed,
        outcome: "failure",
        principal: ADAPTIVE_MFA_SOURCE,
        data: {
          reason,
          ...(subject === undefined ? {} : { subject }),
          ...(error === undefined ? {} : { error: errorCode(error) }),
        },
      });
    } catch {
      // Nothing left to tell.
    }
  }
}

function clean(text: string): string {
  return text.replace(/\p{Cc}/gu, " ").slice(0, 100);
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code.slice(0, 64) : error instanceof Error ? error.name : typeof error;
}
