import type { AuditEvent, AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import type { EventBus } from "../../kernel/event-bus.js";
import type { Logger } from "../../kernel/logger.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { AvailableFactors } from "../decision/default-mfa-policy-provider.js";
import { MfaDecision, type MfaDecisionType } from "../decision/mfa-decision.js";
import type { MfaPolicyContext } from "../decision/mfa-policy-context.js";
import type { MfaPolicyProvider } from "../decision/mfa-policy-provider.js";
import type { RiskAnalyzer, RiskAssessment, RiskInput, RiskSignal } from "./risk-analyzer.js";
import { validRiskAssessment } from "./valid-risk-assessment.js";
import { checkRiskThresholds, type RiskBand, type RiskThresholds, riskBandOf } from "./risk-thresholds.js";
import type { SignInHistoryStore } from "./sign-in-history-store.js";

/** Event published after the analyzer scored a sign-in (payload `AdaptiveAssessedPayload`). */
export const MFA_ADAPTIVE_ASSESSED_EVENT = "mfa.adaptive.assessed";
/** Event published when the default provider decided instead (payload `AdaptiveFallbackPayload`). */
export const MFA_ADAPTIVE_FALLBACK_EVENT = "mfa.adaptive.fallback";
/** Audit type of an assessment. */
export const MFA_ADAPTIVE_ASSESSED_AUDIT = "auth.mfa.adaptive-assessed";
/** Audit type of a fallback. */
export const MFA_ADAPTIVE_FALLBACK_AUDIT = "auth.mfa.adaptive-fallback";

/**
 * Why the adaptive policy fell back: no analyzer registered, no answer within the time budget, the
 * history store or analyzer threw, or the answer was not a score in [0, 1].
 */
export type AdaptiveFallbackReason = "absent" | "timeout" | "error" | "invalid";

/** Payload of `mfa.adaptive.fallback`. */
export interface AdaptiveFallbackPayload {
  readonly reason: AdaptiveFallbackReason;
  readonly userId: string;
}

/** Payload of `mfa.adaptive.assessed`. */
export interface AdaptiveAssessedPayload {
  readonly userId: string;
  readonly score: number;
  readonly band: RiskBand;
  readonly decision: MfaDecisionType;
  readonly analyzer: string;
  readonly signals: readonly RiskSignal[];
}

/** Collaborators and settings of AIAdaptiveMfaPolicyProvider. */
export interface AIAdaptiveMfaPolicyProviderOptions {
  /** The AI core; undefined when none is registered (every decision falls back, reason `absent`). */
  readonly analyzer: RiskAnalyzer | undefined;
  /** Read for the user's past sign-ins; this provider never writes it. */
  readonly history: SignInHistoryStore;
  /** Decides when the analyzer cannot (the DefaultMfaPolicyProvider). */
  readonly fallback: MfaPolicyProvider;
  /**
   * The floor (`platform.auth.mfa.requiredAuthorities`): a user holding any of these is never let in on
   * the password alone, whatever the score; a low score still gets at least a challenge, as the static
   * rules would give. Empty: no floor.
   */
  readonly requiredAuthorities: readonly string[];
  /**
   * `platform.auth.mfa.adaptive.allow-skip-for-required-authorities`: true lets a low score skip MFA
   * even for holders of `requiredAuthorities` (a documented risk). Default false.
   */
  readonly allowSkipForRequiredAuthorities?: boolean;
  /** Band boundaries; checked at construction (CONFIGURATION_INVALID when out of order). */
  readonly thresholds: RiskThresholds;
  /** Budget for reading the history and analysing, in milliseconds (> 0). */
  readonly timeoutMs: number;
  readonly clock: Clock;
  readonly events: EventBus;
  readonly audit: AuditSink;
  readonly logger: Logger;
  /**
   * When given, CHALLENGED decisions name the factors that are offered by the flow and available to
   * the user, and a user who could not pass the challenge is BLOCKED, as DefaultMfaPolicyProvider
   * does; its errors propagate (the caller fails closed). When omitted, the challenge offers every
   * factor of the flow.
   */
  readonly availableFactors?: AvailableFactors;
}

type Outcome =
  | { readonly ok: true; readonly assessment: RiskAssessment }
  | {
      readonly ok: false;
      readonly reason: Exclude<AdaptiveFallbackReason, "absent">;
      readonly error?: unknown;
    };

const TIMED_OUT: unique symbol = Symbol("timed out");
const TOP_SIGNALS = 3;
const MAX_TEXT = 200;

/**
 * Adaptive MFA: asks the RiskAnalyzer (the AI core) for a risk score of each primary sign-in and maps
 * it with the `security.zerotrust.thresholds.*` properties:
 *
 * | score                   | band     | decision                                       |
 * |-------------------------|----------|------------------------------------------------|
 * | < skip                  | skip     | NO_MFA_REQUIRED ("skip: very low risk")        |
 * | skip <= s < optional    | optional | NO_MFA_REQUIRED ("optional: low risk")         |
 * | optional <= s < required| elevated | CHALLENGED ("elevated: ...")                   |
 * | required <= s < strict  | required | CHALLENGED ("required: high risk")             |
 * | >= strict               | strict   | ESCALATED ("strict: ... administrator review") |
 *
 * The floor: a user holding any of `requiredAuthorities` is CHALLENGED in the skip and optional bands
 * too (reason "...; floor: role R always gets at least a challenge"), so the adaptive policy is never
 * weaker than the static rules; `allowSkipForRequiredAuthorities` lifts the floor. In the strict band
 * this provider answers ESCALATED for everyone; the MfaRuntime turns that into a challenge for a floor
 * holder (`secondFactorFloor`), so review never replaces the second factor their role always proves.
 *
 * Between `skip` and `optional` (the band of "optional extra verification") no factor is demanded:
 * MfaDecision has no "offer but let the user decline" type, and an optional factor the user may skip
 * adds no assurance, so it is NO_MFA_REQUIRED with a reason saying so. "Strict measures" are an
 * escalation: a score that high means the password is likely in the wrong hands, and a second factor
 * the attacker may also hold (a phished OTT, a hijacked mailbox) is not enough, so an administrator
 * decides. Every reason carries the score, the threshold crossed, the analyzer and the three
 * heaviest signals.
 *
 * Fallback: when the analyzer is absent, exceeds `timeoutMs` (the budget covers the history read
 * too), throws, or answers a score that is not a finite number in [0, 1], the decision is the
 * `fallback` provider's, and the reason is published as `mfa.adaptive.fallback` `{ reason, userId }`
 * and audited as `auth.mfa.adaptive-fallback` before the fallback is asked (so it is recorded even if
 * the fallback throws; its errors propagate and the caller fails closed). A successful analysis is
 * published as `mfa.adaptive.assessed` and audited as `auth.mfa.adaptive-assessed`. The timer is
 * cleared whichever way the race ends, and the analyzer's AbortSignal is aborted on timeout.
 *
 * How to plug in a model-backed analyzer: see the `RiskAnalyzer` port.
 */
export class AIAdaptiveMfaPolicyProvider implements MfaPolicyProvider {
  private readonly o: AIAdaptiveMfaPolicyProviderOptions;
  private readonly thresholds: RiskThresholds;

  constructor(options: AIAdaptiveMfaPolicyProviderOptions) {
    if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) {
      throw new PlatformError("CONFIGURATION_INVALID", "AIAdaptiveMfaPolicyProvider timeoutMs must be > 0", {
        details: { timeoutMs: options.timeoutMs },
      });
    }
    this.thresholds = checkRiskThresholds(options.thresholds);
    this.o = options;
    if (options.analyzer === undefined) {
      options.logger.warn(
        "Adaptive MFA has no RiskAnalyzer; every decision falls back to the default policy",
      );
    }
  }

  /** Scores the sign-in and maps the score, or falls back to the default provider and records why. */
  async evaluateInitialMfaRequirement(ctx: MfaPolicyContext): Promise<MfaDecision> {
    const analyzer = this.o.analyzer;
    if (analyzer === undefined) return this.fallBack(ctx, "absent", undefined);
    const outcome = await this.assess(analyzer, ctx);
    if (!outcome.ok) return this.fallBack(ctx, outcome.reason, outcome.error);
    const { assessment } = outcome;
    const band = riskBandOf(assessment.score, this.thresholds);
    const decision = await this.decide(band, assessment, ctx);
    await this.publish(MFA_ADAPTIVE_ASSESSED_EVENT, {
      userId: ctx.user.userId,
      score: assessment.score,
      band,
      decision: decision.type,
      analyzer: assessment.analyzer,
      signals: assessment.signals,
    } satisfies AdaptiveAssessedPayload);
    this.record(ctx, {
      type: MFA_ADAPTIVE_ASSESSED_AUDIT,
      outcome: "info",
      data: {
        userId: ctx.user.userId,
        score: assessment.score,
        band,
        decision: decision.type,
        analyzer: assessment.analyzer,
        signals: assessment.signals.map((s) => s.name),
      },
    });
    return decision;
  }

  private async assess(analyzer: RiskAnalyzer, ctx: MfaPolicyContext): Promise<Outcome> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), this.o.timeoutMs);
    });
    const work = (async (): Promise<unknown> => {
      const history = await this.o.history.historyOf(ctx.user.userId);
      const input: RiskInput = {
        userId: ctx.user.userId,
        username: ctx.user.username,
        remoteAddress: ctx.request.remoteAddress,
        deviceId: ctx.request.deviceId,
        deviceHint: ctx.request.deviceHint,
        userAgent: ctx.request.userAgent,
        at: this.o.clock.now(),
        history,
      };
      return analyzer.analyze(input, controller.signal);
    })();
    try {
      // race() subscribes to `work`, so its late rejection after a timeout is handled, not unhandled.
      const answer = await Promise.race([work, deadline]);
      if (answer === TIMED_OUT) {
        controller.abort(
          new PlatformError("TIMEOUT", `RiskAnalyzer gave no answer in ${this.o.timeoutMs} ms`),
        );
        return { ok: false, reason: "timeout" };
      }
      const assessment = validRiskAssessment(answer);
      return assessment === undefined ? { ok: false, reason: "invalid" } : { ok: true, assessment };
    } catch (error) {
      return { ok: false, reason: "error", error };
    } finally {
      clearTimeout(timer);
    }
  }

  private async decide(band: RiskBand, a: RiskAssessment, ctx: MfaPolicyContext): Promise<MfaDecision> {
    const reason = this.reasonOf(band, a);
    switch (band) {
      case "skip":
      case "optional": {
        const role = this.floorRole(ctx);
        if (role === undefined) return MfaDecision.noMfaRequired(reason);
        return this.challenge(`${reason}; floor: role ${role} always gets at least a challenge`, ctx);
      }
      case "strict":
        return MfaDecision.escalated(reason);
      case "elevated":
      case "required":
        return this.challenge(reason, ctx);
    }
  }

  /** The first required authority the user holds, unless the floor is lifted by configuration. */
  private floorRole(ctx: MfaPolicyContext): string | undefined {
    if (this.o.allowSkipForRequiredAuthorities === true) return undefined;
    const held = new Set(ctx.user.authorities);
    return this.o.requiredAuthorities.find((a) => held.has(a));
  }

  /** CHALLENGED with the factors the user can use, or BLOCKED when the challenge could never succeed. */
  private async challenge(reason: string, ctx: MfaPolicyContext): Promise<MfaDecision> {
    if (this.o.availableFactors === undefined) return MfaDecision.challenged(reason);
    const available = new Set(await this.o.availableFactors(ctx.user.userId));
    const usable = [...new Set(ctx.flow.factors)].filter((f) => available.has(f));
    if (usable.length === 0) return MfaDecision.blocked(`${reason}; no usable factor`);
    if (usable.length < ctx.flow.requiredFactors) {
      return MfaDecision.blocked(
        `${reason}; not enough usable factors: ${usable.length} of ${ctx.flow.requiredFactors} required`,
      );
    }
    return MfaDecision.challenged(reason, usable);
  }

  private reasonOf(band: RiskBand, a: RiskAssessment): string {
    const t = this.thresholds;
    const head: Record<RiskBand, string> = {
      skip: `skip: very low risk (score ${fmt(a.score)} < skip ${t.skip}`,
      optional: `optional: low risk (score ${fmt(a.score)} < optional ${t.optional}`,
      elevated: `elevated: moderate risk (score ${fmt(a.score)} >= optional ${t.optional}`,
      required: `required: high risk (score ${fmt(a.score)} >= required ${t.required}`,
      strict: `strict: very high risk, administrator review (score ${fmt(a.score)} >= strict ${t.strict}`,
    };
    const top = [...a.signals]
      .filter((s) => s.weight > 0)
      .sort((x, y) => y.weight - x.weight)
      .slice(0, TOP_SIGNALS)
      .map((s) => `${s.name} ${fmt(s.weight)}`);
    return `${head[band]}; ${a.analyzer}: ${top.length > 0 ? top.join(", ") : "no signals"})`;
  }

  private async fallBack(
    ctx: MfaPolicyContext,
    reason: AdaptiveFallbackReason,
    error: unknown,
  ): Promise<MfaDecision> {
    const userId = ctx.user.userId;
    if (reason !== "absent") {
      this.o.logger.warn("Adaptive MFA fell back to the default policy", {
        reason,
        userId,
        timeoutMs: this.o.timeoutMs,
        ...(error === undefined ? {} : { error: describe(error) }),
      });
    }
    await this.publish(MFA_ADAPTIVE_FALLBACK_EVENT, { reason, userId } satisfies AdaptiveFallbackPayload);
    this.record(ctx, {
      type: MFA_ADAPTIVE_FALLBACK_AUDIT,
      outcome: reason === "absent" ? "info" : "failure",
      data: { reason, userId, ...(reason === "timeout" ? { timeoutMs: this.o.timeoutMs } : {}) },
    });
    return this.o.fallback.evaluateInitialMfaRequirement(ctx);
  }

  private async publish(type: string, payload: unknown): Promise<void> {
    try {
      await this.o.events.publish(type, payload);
    } catch (error) {
      // The bus contract says publish never rejects; a broken one must still not fail the sign-in.
      this.o.logger.error("Adaptive MFA event could not be published", { type, error: describe(error) });
    }
  }

  private record(ctx: MfaPolicyContext, event: AuditEvent): void {
    try {
      this.o.audit.record({
        ...event,
        at: this.o.clock.now(),
        principal: ctx.user.username,
        remoteAddress: ctx.request.remoteAddress,
      });
    } catch {
      // A broken sink must not take logins down with it.
    }
  }
}

function fmt(n: number): string {
  return String(Math.round(n * 10_000) / 10_000);
}

function describe(error: unknown): string {
  return (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, MAX_TEXT);
}
