import type { Authentication } from "../../identity/authentication/authentication.js";
import type { OneTimeTokenDelivery } from "../../identity/ott/one-time-token-delivery.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import type { Logger } from "../../kernel/logger.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { generateMfaCode, hashMfaCode, verifyMfaCode } from "../codes/mfa-code.js";
import { withMinimumDuration } from "../codes/min-delay.js";
import { parseDeviceId, policyContextFrom } from "../decision/mfa-policy-context.js";
import type { SignInHistoryStore } from "../adaptive/sign-in-history-store.js";
import type { FactorType } from "../factor-type.js";
import type { MfaSettings } from "../mfa.properties.js";
import { type FactorContext, newFactorContext, selectableFactors } from "../state/factor-context.js";
import type { FactorContextRepository } from "../state/factor-context-repository.js";
import type { MfaEvent } from "../state/mfa-event.js";
import { isTerminal } from "../state/mfa-state.js";
import type { MfaStateMachine, MfaStepInput } from "../state/mfa-state-machine.js";
import type { MfaEventPublisher } from "../events/mfa-event-publisher.js";
import type { Escalation } from "../escalation/escalation.js";
import type { EscalationService } from "../escalation/escalation-service.js";
import type { MfaErrorType } from "../events/mfa-state-machine-events.js";
import type { MfaCallerBinding } from "./mfa-caller-binding.js";
import { mfaError } from "./mfa-errors.js";
import type { MfaFlow } from "./mfa-flow.js";
import type { MfaLockouts } from "./mfa-lockouts.js";

/** The ports and settings the MFA runtime works with. */
export interface MfaRuntimeOptions {
  contexts: FactorContextRepository;
  machine: MfaStateMachine;
  binding: MfaCallerBinding;
  lockouts: MfaLockouts;
  delivery: OneTimeTokenDelivery;
  clock: Clock;
  ids: IdGenerator;
  audit: AuditSink;
  logger: Logger;
  settings: MfaSettings;
  /** Where StateChange, Error, PerformanceAlert and Custom events go. */
  events: MfaEventPublisher;
  /** A step slower than this publishes a PerformanceAlertEvent. */
  performanceAlertMs: number;
  /** Sign-in history the adaptive policy reads (successes recorded when a sign-in completes). */
  history: SignInHistoryStore;
  /** Holds ESCALATED logins for administrator review. */
  escalations: EscalationService;
  /** HMAC key of MFA codes (random per process by default; share it across instances). */
  codeSecret?: string;
}

/** What the policy decided after a primary authentication. */
export type MfaBeginResult =
  | { kind: "complete" }
  | { kind: "challenged"; context: FactorContext }
  | { kind: "escalated"; escalation: Escalation };

/**
 * The MFA flow's operations over the state machine and the FactorContext store: begin after a primary
 * authentication, load the caller's flow, step it with compare-and-set, send and verify codes.
 */
export class MfaRuntime {
  constructor(private readonly o: MfaRuntimeOptions) {}

  /** The settings in force. */
  get settings(): MfaSettings {
    return this.o.settings;
  }

  /**
   * Consults the lockout list and the flow's policy. NO_MFA_REQUIRED → complete; BLOCKED/ESCALATED →
   * 403 AUTHENTICATION_BLOCKED (escalation review lands with MFA 2); CHALLENGED → a new bound
   * FactorContext whose first selectable factor starts at once (an OTT code is sent).
   */
  async begin(exchange: HttpExchange, primary: Authentication, flow: MfaFlow): Promise<MfaBeginResult> {
    const lockedUntil = await this.o.lockouts.lockedUntil(primary.userId);
    if (lockedUntil !== undefined) {
      throw new PlatformError(
        "ACCOUNT_LOCKED",
        "Too many failed verification attempts; the account is locked for now",
        {
          details: { retryAfterSeconds: Math.ceil((lockedUntil - this.o.clock.now()) / 1000) },
        },
      );
    }
    const description = {
      typeName: flow.typeName,
      factors: flow.factors,
      requiredFactors: flow.requiredFactors,
    };
    let decision: Awaited<ReturnType<MfaFlow["policy"]["evaluateInitialMfaRequirement"]>>;
    const started = performance.now();
    try {
      decision = await flow.policy.evaluateInitialMfaRequirement(
        policyContextFrom(exchange, primary, description),
      );
      await this.timed("policy", started, primary.userId);
    } catch (cause) {
      await this.reportError(
        "SYSTEM",
        "AUTHENTICATION_BLOCKED",
        "The MFA policy could not decide",
        primary.userId,
      );
      // Fail closed: a policy that cannot decide never lets a sign-in through without MFA.
      this.o.logger.error("MFA policy failed", { flow: flow.typeName, error: String(cause) });
      throw new PlatformError("AUTHENTICATION_BLOCKED", "Sign-in cannot be completed right now", { cause });
    }
    this.audit("auth.mfa.decision", primary, {
      flow: flow.typeName,
      decision: decision.type,
      reason: decision.reason,
    });
    if (decision.type === "NO_MFA_REQUIRED") return { kind: "complete" };
    if (decision.type === "ESCALATED") {
      const escalation = await this.o.escalations.open(exchange, primary, flow.typeName, decision.reason);
      return { kind: "escalated", escalation };
    }
    if (decision.type !== "CHALLENGED") {
      await this.reportError(
        "SECURITY",
        "AUTHENTICATION_BLOCKED",
        `Sign-in ${decision.type.toLowerCase()} by policy`,
        primary.userId,
      );
      throw new PlatformError("AUTHENTICATION_BLOCKED", "Sign-in is blocked for this account", {
        details: { decision: decision.type },
      });
    }
    const available = flow.factors.filter((f) => (decision.factors ?? flow.factors).includes(f));
    if (available.length < flow.requiredFactors) {
      throw new PlatformError("AUTHENTICATION_BLOCKED", "Sign-in is blocked: no usable second factor");
    }
    const mfaSessionId = this.o.ids.secret(32);
    const callerBinding = this.o.binding.bind(
      exchange,
      mfaSessionId,
      Math.ceil(this.o.settings.sessionTimeoutMs / 1000),
    );
    let ctx = newFactorContext({
      mfaSessionId,
      flowTypeName: flow.typeName,
      callerBinding,
      primary,
      requiredFactors: flow.requiredFactors,
      availableFactors: available,
      now: this.o.clock.now(),
    });
    ctx = await this.o.machine.fire(ctx, "MFA_REQUIRED_SELECT_FACTOR", { detail: decision.reason });
    ctx = await this.o.contexts.create(ctx);
    await this.o.events.publish({
      type: "StateChangeEvent",
      userId: ctx.userId,
      mfaSessionId: ctx.mfaSessionId,
      flow: ctx.flowTypeName,
      fromState: "PRIMARY_AUTHENTICATION_COMPLETED",
      toState: ctx.state,
      event: "MFA_REQUIRED_SELECT_FACTOR",
      at: this.o.clock.now(),
    });
    return { kind: "challenged", context: await this.startNextFactor(ctx, flow) };
  }

  /**
   * Starts a step-up for a signed-in user who lacks a recent second factor: a bound FactorContext
   * (purpose `step-up`) over the factors the user can use; the first starts at once.
   */
  async beginStepUp(
    exchange: HttpExchange,
    authentication: Authentication,
    flow: MfaFlow,
    available: readonly FactorType[],
  ): Promise<FactorContext> {
    const lockedUntil = await this.o.lockouts.lockedUntil(authentication.userId);
    if (lockedUntil !== undefined) {
      throw new PlatformError(
        "ACCOUNT_LOCKED",
        "Too many failed verification attempts; the account is locked for now",
        {
          details: { retryAfterSeconds: Math.ceil((lockedUntil - this.o.clock.now()) / 1000) },
        },
      );
    }
    const factors = flow.factors.filter((f) => available.includes(f));
    const mfaSessionId = this.o.ids.secret(32);
    const callerBinding = this.o.binding.bind(
      exchange,
      mfaSessionId,
      Math.ceil(this.o.settings.sessionTimeoutMs / 1000),
    );
    let ctx: FactorContext = {
      ...newFactorContext({
        mfaSessionId,
        flowTypeName: flow.typeName,
        callerBinding,
        primary: authentication,
        requiredFactors: 1,
        availableFactors: factors,
        now: this.o.clock.now(),
      }),
      purpose: "step-up",
    };
    ctx = await this.o.machine.fire(ctx, "MFA_REQUIRED_SELECT_FACTOR", { detail: "step-up" });
    ctx = await this.o.contexts.create(ctx);
    this.audit("auth.mfa.step-up-started", authentication, { flow: flow.typeName });
    return this.startNextFactor(ctx, flow);
  }

  /** Starts the first selectable factor (the spec: it starts automatically); an OTT code is sent. */
  async startNextFactor(ctx: FactorContext, flow: MfaFlow): Promise<FactorContext> {
    const next = selectableFactors(ctx)[0];
    if (!next || ctx.state !== "FACTOR_SELECTION") return ctx;
    return this.select(ctx, next, flow);
  }

  /** Selects a factor; OTT sends its code at once. */
  async select(ctx: FactorContext, factor: FactorType, flow: MfaFlow): Promise<FactorContext> {
    // Refuse before any step, so a bad choice never disturbs the running challenge.
    if (!selectableFactors(ctx).includes(factor)) {
      throw new PlatformError(
        "VALIDATION_FAILED",
        `${factor} is not available (unusable or already completed)`,
        {
          details: { fields: ["factorType"], allowed: selectableFactors(ctx) },
        },
      );
    }
    let next = ctx;
    if (ctx.state !== "FACTOR_SELECTION") next = await this.step(ctx, "MFA_REQUIRED_SELECT_FACTOR");
    next = await this.step(next, "FACTOR_SELECTED", { factor });
    return factor === "OTT" ? this.sendCode(next, flow) : next;
  }

  /**
   * The caller's live flow: the id from `X-MFA-Session-Id`, the body's `mfaSessionId` or the binding
   * cookie, which must match; timeouts are applied first. Ended or unknown flows answer
   * MFA_SESSION_EXPIRED, a flow past sessionTimeoutMs MFA_TIMEOUT.
   */
  async load(exchange: HttpExchange, flow: MfaFlow, presentedId?: unknown): Promise<FactorContext> {
    const fromHeader = exchange.header("x-mfa-session-id");
    const id =
      typeof presentedId === "string" && presentedId
        ? presentedId
        : (fromHeader ?? this.o.binding.sessionIdOf(exchange));
    if (!id) throw mfaError("MFA_SESSION_REQUIRED", "No MFA session in progress");
    if (id.length > 128) throw mfaError("MFA_SESSION_EXPIRED", "The MFA session has ended");
    let ctx = await this.o.contexts.find(id);
    if (!ctx) throw mfaError("MFA_SESSION_EXPIRED", "The MFA session has ended");
    if (!this.o.binding.matches(exchange, ctx.mfaSessionId, ctx.callerBinding)) {
      await this.reportError(
        "SECURITY",
        "MFA_SESSION_BINDING_INVALID",
        "An MFA session was presented by another client",
        ctx.userId,
        ctx.mfaSessionId,
      );
      throw mfaError("MFA_SESSION_BINDING_INVALID", "This MFA session belongs to another client");
    }
    if (ctx.flowTypeName !== flow.typeName) {
      // A flow's session never finishes on another flow's endpoints (its primary step, policy, handlers).
      throw mfaError("MFA_SESSION_BINDING_INVALID", "This MFA session belongs to another sign-in flow");
    }
    const timeout = this.o.machine.checkTimeouts(ctx);
    if (timeout) {
      ctx = await this.step(ctx, timeout);
      await this.reportError(
        "TIMEOUT",
        timeout === "SESSION_TIMEOUT" ? "MFA_TIMEOUT" : "CHALLENGE_TIMEOUT",
        `The MFA ${timeout === "SESSION_TIMEOUT" ? "session" : "challenge"} timed out`,
        ctx.userId,
        ctx.mfaSessionId,
      );
      if (timeout === "SESSION_TIMEOUT")
        throw mfaError("MFA_TIMEOUT", "The MFA session timed out; sign in again");
    }
    if (isTerminal(ctx.state))
      throw mfaError("MFA_SESSION_EXPIRED", "The MFA session has ended", { state: ctx.state });
    return ctx;
  }

  /** Fires one event and saves with compare-and-set (a concurrent step answers 409 CONFLICT). */
  async step(ctx: FactorContext, event: MfaEvent, input?: MfaStepInput): Promise<FactorContext> {
    const started = performance.now();
    const next = await this.o.machine.fire(ctx, event, input);
    try {
      const saved = await this.o.contexts.save(next);
      await this.o.events.publish({
        type: "StateChangeEvent",
        userId: saved.userId,
        mfaSessionId: saved.mfaSessionId,
        flow: saved.flowTypeName,
        fromState: ctx.state,
        toState: saved.state,
        event,
        at: this.o.clock.now(),
      });
      await this.timed(`step:${event}`, started, saved.userId, saved.mfaSessionId);
      return saved;
    } catch (error) {
      // The flow was finished (and removed) by a concurrent step: for this caller it has ended.
      if (isPlatformError(error) && error.code === "NOT_FOUND") {
        throw mfaError("MFA_SESSION_EXPIRED", "The MFA session has ended");
      }
      throw error;
    }
  }

  /** Generates a numeric code bound to this MFA session, stores only its HMAC, and delivers it. */
  async sendCode(ctx: FactorContext, flow: MfaFlow): Promise<FactorContext> {
    const { otpTokenLength, otpTokenValiditySeconds } = this.o.settings;
    const code = generateMfaCode(otpTokenLength);
    const now = this.o.clock.now();
    const challenge = {
      factor: "OTT" as const,
      codeHash: hashMfaCode(code, ctx.mfaSessionId, this.codeOptions()),
      issuedAt: now,
      expiresAt: now + otpTokenValiditySeconds * 1000,
    };
    const next = await this.step(ctx, "INITIATE_CHALLENGE", { challenge });
    const message = {
      username: ctx.username,
      to: ctx.username,
      token: code,
      link: flow.urls.ottChallengePage,
      channel: "mfa-code",
      at: now,
    };
    setImmediate(() => {
      this.o.delivery.deliver(message).catch((error: unknown) => {
        this.o.logger.error("MFA code delivery failed", { flow: flow.typeName, error: String(error) });
        this.audit("auth.mfa.delivery-failed", ctx.primary, { flow: flow.typeName });
      });
    });
    this.audit("auth.mfa.code-sent", ctx.primary, { flow: flow.typeName });
    return next;
  }

  /**
   * Verifies an OTT code. A wrong one answers 401 MFA_FACTOR_VERIFICATION_FAILED with attemptsMade and
   * maxAttempts, the last allowed failure locks the account (423 ACCOUNT_LOCKED); every rejection is
   * padded to the minimum delay.
   */
  verifyCode(ctx: FactorContext, presented: unknown): Promise<FactorContext> {
    return withMinimumDuration(this.o.settings.minimumRejectionDelayMs, () => this.judge(ctx, presented));
  }

  /**
   * Judges a code against the current stored flow. A lost compare-and-set reloads and judges again,
   * so every attempt is counted and the answer depends only on the code and the flow's real state,
   * never on which concurrent request won.
   */
  private async judge(loaded: FactorContext, presented: unknown): Promise<FactorContext> {
    let ctx = loaded;
    for (let attempt = 0; attempt < 20; attempt++) {
      if (attempt > 0) {
        const fresh = await this.o.contexts.find(ctx.mfaSessionId);
        if (!fresh || isTerminal(fresh.state)) {
          if (fresh?.state === "MFA_ACCOUNT_LOCKED") throw this.locked(fresh);
          throw mfaError("MFA_SESSION_EXPIRED", "The MFA session has ended");
        }
        ctx = fresh;
      }
      if (ctx.state !== "OTT_CHALLENGE" || !ctx.challenge?.codeHash) {
        throw new PlatformError("ILLEGAL_STATE_TRANSITION", "No code was sent for this MFA session", {
          details: { state: ctx.state },
        });
      }
      const ok = verifyMfaCode(presented, ctx.challenge.codeHash, ctx.mfaSessionId, this.codeOptions());
      try {
        if (ok) {
          const verified = await this.step(ctx, "FACTOR_VERIFIED_SUCCESS", { factor: "OTT" });
          await this.o.lockouts.clearFailures(ctx.userId);
          this.audit("auth.mfa.factor-verified", ctx.primary, { factor: "OTT" });
          return verified;
        }
        const failed = await this.step(ctx, "FACTOR_VERIFICATION_FAILED", { factor: "OTT" });
        return await this.afterFailure(failed, "OTT");
      } catch (error) {
        if (isPlatformError(error) && error.code === "CONFLICT") continue;
        throw error;
      }
    }
    throw new PlatformError("CONFLICT", "The MFA session is too busy; try again");
  }

  /** Counts a failure for the user across flows; locks on the flow's or the user's limit. */
  private async afterFailure(failed: FactorContext, factor: FactorType): Promise<never> {
    const { maxRetryAttempts, accountLockoutDurationMs } = this.o.settings;
    this.audit("auth.mfa.factor-failed", failed.primary, {
      factor,
      attemptsMade: failed.failedAttempts,
    });
    const userLock = await this.o.lockouts.recordFailure(
      failed.userId,
      maxRetryAttempts,
      accountLockoutDurationMs,
    );
    if (failed.state !== "MFA_ACCOUNT_LOCKED" && userLock === undefined) {
      await this.reportError(
        "SECURITY",
        "MFA_FACTOR_VERIFICATION_FAILED",
        `A ${factor} factor failed to verify`,
        failed.userId,
        failed.mfaSessionId,
      );
    }
    if (failed.state === "MFA_ACCOUNT_LOCKED" || userLock !== undefined) {
      await this.reportError(
        "LIMIT_EXCEEDED",
        "ACCOUNT_LOCKED",
        "Too many failed factors: the account is locked",
        failed.userId,
        failed.mfaSessionId,
      );
      const until = Math.max(
        failed.lockedUntil ?? 0,
        userLock ?? 0,
        this.o.clock.now() + accountLockoutDurationMs,
      );
      await this.o.lockouts.lock(failed.userId, until);
      this.audit("auth.mfa.locked", failed.primary, { until });
      throw this.locked({ ...failed, lockedUntil: until });
    }
    throw this.failure(failed.failedAttempts);
  }

  private locked(ctx: FactorContext): PlatformError {
    const until = ctx.lockedUntil ?? this.o.clock.now() + this.o.settings.accountLockoutDurationMs;
    return new PlatformError(
      "ACCOUNT_LOCKED",
      "Too many failed verification attempts; the account is locked for now",
      {
        details: {
          retryAfterSeconds: Math.max(1, Math.ceil((until - this.o.clock.now()) / 1000)),
          attemptsMade: ctx.failedAttempts,
          maxAttempts: this.o.settings.maxRetryAttempts,
        },
      },
    );
  }

  /**
   * Judges a passkey assertion for the flow's user (the state machine, not the security context,
   * holds the state): `verify` checks the WebAuthn response and returns whose credential it was; a
   * response for another user, or one that does not verify, counts as a failed attempt.
   */
  verifyPasskey(ctx: FactorContext, verify: () => Promise<Authentication>): Promise<FactorContext> {
    return withMinimumDuration(this.o.settings.minimumRejectionDelayMs, async () => {
      if (ctx.state !== "PASSKEY_CHALLENGE") {
        throw new PlatformError(
          "ILLEGAL_STATE_TRANSITION",
          "No passkey challenge is open for this MFA session",
          {
            details: { state: ctx.state },
          },
        );
      }
      let owner: Authentication | undefined;
      try {
        owner = await verify();
      } catch (error) {
        if (!isPlatformError(error) || !error.code.startsWith("WEBAUTHN_")) throw error;
      }
      for (let attempt = 0; attempt < 20; attempt++) {
        const current = attempt === 0 ? ctx : await this.o.contexts.find(ctx.mfaSessionId);
        if (current?.state !== "PASSKEY_CHALLENGE") {
          if (current?.state === "MFA_ACCOUNT_LOCKED") throw this.locked(current);
          throw mfaError("MFA_SESSION_EXPIRED", "The MFA session has ended");
        }
        try {
          if (owner && owner.userId === current.userId) {
            const verified = await this.step(current, "FACTOR_VERIFIED_SUCCESS", { factor: "PASSKEY" });
            await this.o.lockouts.clearFailures(current.userId);
            this.audit("auth.mfa.factor-verified", current.primary, { factor: "PASSKEY" });
            return verified;
          }
          const failed = await this.step(current, "FACTOR_VERIFICATION_FAILED", { factor: "PASSKEY" });
          return await this.afterFailure(failed, "PASSKEY");
        } catch (error) {
          if (isPlatformError(error) && error.code === "CONFLICT") continue;
          throw error;
        }
      }
      throw new PlatformError("CONFLICT", "The MFA session is too busy; try again");
    });
  }

  /** Ends the flow: cancelled by the user. */
  async cancel(ctx: FactorContext): Promise<FactorContext> {
    this.audit("auth.mfa.cancelled", ctx.primary, {});
    return this.step(ctx, "USER_ABORTED_MFA");
  }

  /** Records a completed sign-in in the history (only then: reaching a challenge proves nothing). */
  async recordSignIn(exchange: HttpExchange, authentication: Authentication): Promise<void> {
    try {
      await this.o.history.recordSuccess({
        userId: authentication.userId,
        remoteAddress: exchange.remoteAddress,
        deviceId: parseDeviceId(exchange.header("x-device-id")),
        at: this.o.clock.now(),
      });
    } catch (error) {
      this.o.logger.warn("sign-in history not recorded", { error: String(error) });
    }
  }

  /** Forgets a finished flow (its id is single use). */
  async finish(exchange: HttpExchange, ctx: FactorContext): Promise<void> {
    this.o.binding.clear(exchange);
    await this.o.contexts.delete(ctx.mfaSessionId);
  }

  /** Publishes an ErrorEvent (the API layer reports limits and system errors it meets). */
  async reportError(
    errorType: MfaErrorType,
    code: string,
    message: string,
    userId?: string,
    mfaSessionId?: string,
  ): Promise<void> {
    await this.o.events.publish({
      type: "ErrorEvent",
      errorType,
      code,
      message,
      userId,
      mfaSessionId,
      at: this.o.clock.now(),
    });
  }

  /** Publishes a host's CustomEvent through the MFA event channel. */
  async publishCustom(name: string, payload: Record<string, unknown>, userId?: string): Promise<void> {
    await this.o.events.publish({ type: "CustomEvent", name, payload, userId, at: this.o.clock.now() });
  }

  private async timed(
    operation: string,
    started: number,
    userId?: string,
    mfaSessionId?: string,
  ): Promise<void> {
    const durationMs = performance.now() - started;
    if (durationMs <= this.o.performanceAlertMs) return;
    await this.o.events.publish({
      type: "PerformanceAlertEvent",
      operation,
      durationMs: Math.round(durationMs),
      thresholdMs: this.o.performanceAlertMs,
      userId,
      mfaSessionId,
      at: this.o.clock.now(),
    });
  }

  private failure(attemptsMade: number): PlatformError {
    return mfaError("MFA_FACTOR_VERIFICATION_FAILED", "The code is not valid", {
      attemptsMade,
      maxAttempts: this.o.settings.maxRetryAttempts,
    });
  }

  private codeOptions(): { secret?: string; length: number } {
    return { secret: this.o.codeSecret, length: this.o.settings.otpTokenLength };
  }

  private audit(type: string, who: Authentication, data: Record<string, unknown>): void {
    this.o.audit.record({
      type,
      principal: who.username,
      outcome: "info",
      data: { userId: who.userId, ...data },
    });
  }
}
