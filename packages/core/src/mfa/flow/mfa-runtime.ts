import type { Authentication } from "../../identity/authentication/authentication.js";
import { correlated } from "../../identity/events/correlated.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { generateMfaCode, hashMfaCode } from "../codes/mfa-code.js";
import { MfaDecision } from "../decision/mfa-decision.js";
import { policyContextFrom } from "../decision/mfa-policy-context.js";
import { floorRoleOf } from "./second-factor-floor.js";
import type { FactorType } from "../factor-type.js";
import type { MfaSettings } from "../mfa.properties.js";
import { type FactorContext, newFactorContext, selectableFactors } from "../state/factor-context.js";
import type { MfaEvent } from "../state/mfa-event.js";
import { isTerminal } from "../state/mfa-state.js";
import type { MfaStepInput } from "../state/mfa-state-machine.js";
import type { MfaErrorEventCode, MfaErrorType } from "../events/mfa-state-machine-events.js";
import { codeBudgetExhausted, hasCodeBudget } from "./mfa-code-budget.js";
import { mfaError } from "./mfa-errors.js";
import { MfaFactorVerification } from "./mfa-factor-verification.js";
import type { MfaFlow } from "./mfa-flow.js";
import type { MfaBeginResult, MfaRuntimeOptions, StartedChallenge } from "./mfa-runtime-options.js";
import { type AuditOrigin, MfaRuntimeEvents } from "./mfa-runtime-events.js";

export type { MfaBeginResult, MfaRuntimeOptions, StartedChallenge } from "./mfa-runtime-options.js";

/**
 * The MFA flow's operations over the state machine and the FactorContext store: begin after a primary
 * authentication, load the caller's flow, step it with compare-and-set, send and verify codes.
 */
export class MfaRuntime {
  private readonly events: MfaRuntimeEvents;
  private readonly verification: MfaFactorVerification;

  constructor(private readonly o: MfaRuntimeOptions) {
    this.events = new MfaRuntimeEvents(o);
    this.verification = new MfaFactorVerification(o, this.events, (ctx, event, input) =>
      this.step(ctx, event, input),
    );
  }

  /** The settings in force. */
  get settings(): MfaSettings {
    return this.o.settings;
  }

  /**
   * Consults the lockout list and the flow's policy. NO_MFA_REQUIRED → complete; BLOCKED → 403
   * AUTHENTICATION_BLOCKED; ESCALATED → held for administrator review, except for a holder of the
   * second-factor floor (`secondFactorFloor`), who is CHALLENGED instead (audited
   * `auth.mfa.escalation-floor`): review never replaces a second factor; CHALLENGED → a new bound
   * FactorContext whose first selectable factor starts at once (an OTT code is sent).
   */
  async begin(exchange: HttpExchange, primary: Authentication, flow: MfaFlow): Promise<MfaBeginResult> {
    await this.assertNotLocked(primary.userId);
    const description = {
      typeName: flow.typeName,
      factors: flow.factors,
      requiredFactors: flow.requiredFactors,
    };
    let decision: Awaited<ReturnType<MfaFlow["policy"]["evaluateInitialMfaRequirement"]>>;
    const started = performance.now();
    try {
      decision = await flow.policy.evaluateInitialMfaRequirement(
        policyContextFrom(exchange, primary, description, this.o.devices.verifiedId(exchange)),
      );
      await this.events.timed("policy", started, primary.userId);
    } catch (cause) {
      await this.events.reportError(
        "SYSTEM",
        "AUTHENTICATION_BLOCKED",
        "The MFA policy could not decide",
        primary.userId,
      );
      // Fail closed: a policy that cannot decide never lets a sign-in through without MFA.
      this.o.logger.error("MFA policy failed", { flow: flow.typeName, error: String(cause) });
      throw new PlatformError("AUTHENTICATION_BLOCKED", "Sign-in cannot be completed right now", { cause });
    }
    const origin = correlated(exchange);
    this.events.audit(
      "auth.mfa.decision",
      primary,
      { flow: flow.typeName, decision: decision.type, reason: decision.reason },
      origin,
    );
    if (decision.type === "NO_MFA_REQUIRED") return { kind: "complete" };
    const floorRole =
      decision.type === "ESCALATED" ? floorRoleOf(primary, this.o.secondFactorFloor) : undefined;
    if (floorRole !== undefined) {
      // Review never replaces the factor a floor role always proves: a high risk gets the challenge.
      this.events.audit(
        "auth.mfa.escalation-floor",
        primary,
        { flow: flow.typeName, role: floorRole, reason: decision.reason },
        origin,
      );
      const usable = await this.o.availableFactors?.(primary.userId);
      decision = MfaDecision.challenged(
        `${decision.reason}; floor: role ${floorRole} proves a second factor, review never replaces it`,
        usable === undefined ? undefined : flow.factors.filter((f) => usable.includes(f)),
      );
    }
    if (decision.type === "ESCALATED") {
      const held = await this.o.escalations.hold(exchange, primary, flow.typeName, decision.reason);
      return { kind: "escalated", ...held };
    }
    if (decision.type !== "CHALLENGED") {
      await this.events.reportError(
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
    const bound = this.newBoundContext(exchange, flow, primary, flow.requiredFactors, available);
    let ctx = await this.o.machine.fire(bound.context, "MFA_REQUIRED_SELECT_FACTOR", {
      detail: decision.reason,
    });
    ctx = await this.o.contexts.create(ctx);
    await this.events.stateChanged(ctx, "PRIMARY_AUTHENTICATION_COMPLETED", "MFA_REQUIRED_SELECT_FACTOR");
    return {
      kind: "challenged",
      context: await this.startNextFactor(ctx, flow, origin),
      binding: bound.binding,
    };
  }

  /**
   * Starts a step-up for a signed-in user who lacks a recent second factor: a bound FactorContext
   * (purpose `step-up`) over the factors the user can use; the first starts at once. Returns the
   * context and the caller's binding value.
   */
  async beginStepUp(
    exchange: HttpExchange,
    authentication: Authentication,
    flow: MfaFlow,
    available: readonly FactorType[],
  ): Promise<StartedChallenge> {
    await this.assertNotLocked(authentication.userId);
    const factors = flow.factors.filter((f) => available.includes(f));
    const bound = this.newBoundContext(exchange, flow, authentication, 1, factors);
    let ctx: FactorContext = { ...bound.context, purpose: "step-up" };
    ctx = await this.o.machine.fire(ctx, "MFA_REQUIRED_SELECT_FACTOR", { detail: "step-up" });
    ctx = await this.o.contexts.create(ctx);
    this.events.audit(
      "auth.mfa.step-up-started",
      authentication,
      { flow: flow.typeName },
      correlated(exchange),
    );
    return { context: await this.startNextFactor(ctx, flow, correlated(exchange)), binding: bound.binding };
  }

  /** Starts the first selectable factor automatically, sparing the user a choice; an OTT code is sent. */
  async startNextFactor(ctx: FactorContext, flow: MfaFlow, origin: AuditOrigin = {}): Promise<FactorContext> {
    const next = selectableFactors(ctx)[0];
    if (!next || ctx.state !== "FACTOR_SELECTION") return ctx;
    return this.select(ctx, next, flow, origin);
  }

  /** Selects a factor; OTT sends its code at once, a generic factor's challenge opens at once. */
  async select(
    ctx: FactorContext,
    factor: FactorType,
    flow: MfaFlow,
    origin: AuditOrigin = {},
  ): Promise<FactorContext> {
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
    // Choosing OTT sends a code: a flow out of codes is refused before its running challenge is touched.
    const challenge = this.o.factors.get(factor)?.challengeState;
    if (challenge === "OTT_CHALLENGE") await this.assertCodeBudget(ctx);
    let next = ctx;
    if (ctx.state !== "FACTOR_SELECTION") next = await this.step(ctx, "MFA_REQUIRED_SELECT_FACTOR");
    next = await this.step(next, "FACTOR_SELECTED", { factor });
    if (challenge === "OTT_CHALLENGE") return this.sendCode(next, flow, origin);
    return challenge === "FACTOR_CHALLENGE" ? this.step(next, "OPEN_FACTOR_CHALLENGE") : next;
  }

  /**
   * The caller's live flow: the id from `X-MFA-Session-Id`, the body's `mfaSessionId` or the binding
   * (the `X-MFA-Binding` header, else the `PLATFORM_MFA` cookie), which must match; timeouts are
   * applied first. A header and a cookie that disagree answer MFA_SESSION_BINDING_INVALID, ended or
   * unknown flows MFA_SESSION_EXPIRED, a flow past sessionTimeoutMs MFA_TIMEOUT.
   */
  async load(exchange: HttpExchange, flow: MfaFlow, presentedId?: unknown): Promise<FactorContext> {
    if (this.o.binding.conflicts(exchange)) {
      await this.events.reportError(
        "SECURITY",
        "MFA_SESSION_BINDING_INVALID",
        "The MFA binding header and cookie disagree",
      );
      throw mfaError("MFA_SESSION_BINDING_INVALID", "The MFA binding header and cookie disagree");
    }
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
      await this.events.reportError(
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
      await this.events.reportError(
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
      await this.events.stateChanged(saved, ctx.state, event);
      await this.events.timed(`step:${event}`, started, saved.userId, saved.mfaSessionId);
      return saved;
    } catch (error) {
      // The flow was finished (and removed) by a concurrent step: for this caller it has ended.
      if (isPlatformError(error) && error.code === "NOT_FOUND") {
        throw mfaError("MFA_SESSION_EXPIRED", "The MFA session has ended");
      }
      throw error;
    }
  }

  /**
   * Generates a numeric code bound to this MFA session, stores only its HMAC, and delivers it. Every
   * path that sends a code (the automatic first one, select-factor, generate-code, the next factor)
   * comes through here: past MAX_CODES_PER_MFA_SESSION it answers 429 TOO_MANY_ATTEMPTS and sends
   * nothing. The count is checked on the version the compare-and-set step saves, so concurrent
   * requests cannot exceed it (the losers get CONFLICT) and a code is delivered only once it is saved.
   */
  async sendCode(ctx: FactorContext, flow: MfaFlow, origin: AuditOrigin = {}): Promise<FactorContext> {
    await this.assertCodeBudget(ctx);
    const { otpTokenLength, otpTokenValiditySeconds } = this.o.settings;
    const code = generateMfaCode(otpTokenLength);
    const now = this.o.clock.now();
    const challenge = {
      factor: "OTT" as const,
      codeHash: hashMfaCode(code, ctx.mfaSessionId, this.verification.codeOptions()),
      issuedAt: now,
      expiresAt: now + otpTokenValiditySeconds * 1000,
    };
    const next = await this.step(ctx, "INITIATE_CHALLENGE", { challenge });
    const message = {
      username: ctx.username,
      to: ctx.username,
      token: code,
      link: this.absolute(flow.urls.ottChallengePage),
      channel: "mfa-code",
      at: now,
    };
    setImmediate(() => {
      this.o.delivery.deliver(message).catch((error: unknown) => {
        this.o.logger.error("MFA code delivery failed", { flow: flow.typeName, error: String(error) });
        this.events.audit("auth.mfa.delivery-failed", ctx.primary, { flow: flow.typeName }, origin);
      });
    });
    this.events.audit("auth.mfa.code-sent", ctx.primary, { flow: flow.typeName }, origin);
    return next;
  }

  /**
   * Verifies an OTT code. A wrong one answers 401 MFA_FACTOR_VERIFICATION_FAILED with attemptsMade and
   * maxAttempts, the last allowed failure locks the account (423 ACCOUNT_LOCKED); every rejection is
   * padded to the minimum delay.
   */
  verifyCode(ctx: FactorContext, presented: unknown, origin: AuditOrigin = {}): Promise<FactorContext> {
    return this.verification.verifyCode(ctx, presented, origin);
  }

  /**
   * Judges a passkey assertion for the flow's user (the state machine, not the security context,
   * holds the state): `verify` checks the WebAuthn response and returns whose credential it was; a
   * response for another user, or one that does not verify, counts as a failed attempt.
   */
  verifyPasskey(
    ctx: FactorContext,
    verify: () => Promise<Authentication>,
    origin: AuditOrigin = {},
  ): Promise<FactorContext> {
    return this.verification.verifyPasskey(ctx, verify, origin);
  }

  /**
   * Judges an answer to the open challenge of a generic factor (a plugin's, e.g. TOTP): the same
   * answers as an OTT code (401 MFA_FACTOR_VERIFICATION_FAILED, 423 ACCOUNT_LOCKED at the limit).
   */
  verifyFactor(
    ctx: FactorContext,
    factor: FactorType,
    answer: unknown,
    origin: AuditOrigin = {},
  ): Promise<FactorContext> {
    const member = this.o.factors.get(factor);
    if (!member)
      throw new PlatformError("VALIDATION_FAILED", `${factor} is not offered`, {
        details: { fields: ["factorType"] },
      });
    return this.verification.verifyFactor(ctx, member, answer, origin);
  }

  /** The factor family (offered members) this runtime serves. */
  get factors(): MfaRuntimeOptions["factors"] {
    return this.o.factors;
  }

  /** Ends the flow: cancelled by the user. */
  async cancel(ctx: FactorContext, origin: AuditOrigin = {}): Promise<FactorContext> {
    this.events.audit("auth.mfa.cancelled", ctx.primary, {}, origin);
    return this.step(ctx, "USER_ABORTED_MFA");
  }

  /**
   * Records a completed sign-in in the history (only then: reaching a challenge proves nothing). With
   * `issueDeviceCookie` (session sign-ins) the caller's device cookie is issued (a new device id) or
   * renewed (a verified one); stateless answers set no cookie and remember only a verified id. The
   * history never remembers the client's `X-Device-Id`.
   */
  async recordSignIn(
    exchange: HttpExchange,
    authentication: Authentication,
    issueDeviceCookie = true,
  ): Promise<void> {
    const verified = this.o.devices.verifiedId(exchange);
    const deviceId = issueDeviceCookie ? this.o.devices.issue(exchange, verified) : verified;
    try {
      await this.o.history.recordSuccess({
        userId: authentication.userId,
        remoteAddress: exchange.remoteAddress,
        deviceId,
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
    code: MfaErrorEventCode,
    message: string,
    userId?: string,
    mfaSessionId?: string,
  ): Promise<void> {
    await this.events.reportError(errorType, code, message, userId, mfaSessionId);
  }

  /** Publishes a host's CustomEvent through the MFA event channel. */
  async publishCustom(name: string, payload: Record<string, unknown>, userId?: string): Promise<void> {
    await this.events.publishCustom(name, payload, userId);
  }

  /** A new FactorContext under a fresh session id, bound to the caller for the session's lifetime. */
  private newBoundContext(
    exchange: HttpExchange,
    flow: MfaFlow,
    primary: Authentication,
    requiredFactors: number,
    availableFactors: readonly FactorType[],
  ): StartedChallenge {
    const mfaSessionId = this.o.ids.secret(32);
    const issued = this.o.binding.issue(
      exchange,
      mfaSessionId,
      Math.ceil(this.o.settings.sessionTimeoutMs / 1000),
    );
    const context = newFactorContext({
      mfaSessionId,
      flowTypeName: flow.typeName,
      callerBinding: issued.stored,
      primary,
      requiredFactors,
      availableFactors,
      now: this.o.clock.now(),
    });
    return { context, binding: issued.value };
  }

  /** Refuses (and reports) a send once the flow has used its code budget. */
  private async assertCodeBudget(ctx: FactorContext): Promise<void> {
    if (hasCodeBudget(ctx)) return;
    await this.events.reportError(
      "LIMIT_EXCEEDED",
      "TOO_MANY_ATTEMPTS",
      "Too many codes requested",
      ctx.userId,
      ctx.mfaSessionId,
    );
    // The budget lasts as long as the flow: a new sign-in starts a new one.
    const left = ctx.createdAt + this.o.settings.sessionTimeoutMs - this.o.clock.now();
    throw codeBudgetExhausted(Math.max(1, Math.ceil(left / 1000)));
  }

  /** Refuses a user whose account is locked after too many failed factors. */
  private async assertNotLocked(userId: string): Promise<void> {
    const lockedUntil = await this.o.lockouts.lockedUntil(userId);
    if (lockedUntil !== undefined) {
      throw new PlatformError(
        "ACCOUNT_LOCKED",
        "Too many failed verification attempts; the account is locked for now",
        {
          details: { retryAfterSeconds: Math.ceil((lockedUntil - this.o.clock.now()) / 1000) },
        },
      );
    }
  }

  /** An absolute link for messages (the public URL, else the local origin); relative when neither is known. */
  private absolute(path: string): string {
    try {
      return `${this.o.publicUrl?.() ?? ""}${path}`;
    } catch {
      return path;
    }
  }
}
