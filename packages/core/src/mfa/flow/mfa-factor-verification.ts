import type { Authentication } from "../../identity/authentication/authentication.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import { verifyMfaCode } from "../codes/mfa-code.js";
import { withMinimumDuration } from "../codes/min-delay.js";
import type { FactorType } from "../factor-type.js";
import type { Factor } from "../factor-family/factor.js";
import type { FactorContext } from "../state/factor-context.js";
import type { MfaEvent } from "../state/mfa-event.js";
import { isTerminal } from "../state/mfa-state.js";
import type { MfaStepInput } from "../state/mfa-state-machine.js";
import { mfaError } from "./mfa-errors.js";
import type { MfaRuntimeOptions } from "./mfa-runtime-options.js";
import type { AuditOrigin, MfaRuntimeEvents } from "./mfa-runtime-events.js";

/** Fires one event on a flow and saves it with compare-and-set (the runtime's `step`). */
export type MfaStep = (ctx: FactorContext, event: MfaEvent, input?: MfaStepInput) => Promise<FactorContext>;

/** The runtime's ports and settings the verification reads (lazily, so the runtime's own options do). */
export type MfaFactorVerificationOptions = Pick<
  MfaRuntimeOptions,
  "contexts" | "lockouts" | "clock" | "settings" | "codeSecret" | "factors"
>;

/** HMAC key and length of MFA codes, as `hashMfaCode` and `verifyMfaCode` take them. */
export interface MfaCodeOptions {
  secret: string | Uint8Array;
  length: number;
}

/**
 * Judges second factors (OTT codes and passkey assertions) for the MFA runtime: steps the flow on
 * success or failure, counts failures across flows, locks the account at the limit, and pads every
 * rejection to the minimum delay.
 */
export class MfaFactorVerification {
  constructor(
    private readonly o: MfaFactorVerificationOptions,
    private readonly events: MfaRuntimeEvents,
    private readonly step: MfaStep,
  ) {}

  /** The HMAC key and length MFA codes are made and checked with. */
  codeOptions(): MfaCodeOptions {
    return { secret: this.o.codeSecret(), length: this.o.settings.otpTokenLength };
  }

  /**
   * Verifies an OTT code. A wrong one answers 401 MFA_FACTOR_VERIFICATION_FAILED with attemptsMade and
   * maxAttempts, the last allowed failure locks the account (423 ACCOUNT_LOCKED); every rejection is
   * padded to the minimum delay.
   */
  verifyCode(ctx: FactorContext, presented: unknown, origin: AuditOrigin = {}): Promise<FactorContext> {
    return withMinimumDuration(this.o.settings.minimumRejectionDelayMs, async () => {
      assertCodeSent(ctx);
      const failures = await this.reserve(ctx, "OTT");
      return this.judge(ctx, presented, origin, failures);
    });
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
      const failures = await this.reserve(ctx, "PASSKEY");
      let owner: Authentication | undefined;
      try {
        owner = await verify();
      } catch (error) {
        if (!isPlatformError(error) || !error.code.startsWith("WEBAUTHN_")) throw error;
      }
      return this.settle(
        ctx,
        "PASSKEY",
        owner !== undefined && owner.userId === ctx.userId,
        origin,
        failures,
      );
    });
  }

  /**
   * Judges an answer to a generic factor's challenge (FACTOR_CHALLENGE): the member's `verify` checks
   * and spends it in one atomic step, once; then the flow steps as for a code (a wrong answer counts
   * toward the lockout with the member's weight). Padded to the minimum delay like every rejection.
   */
  verifyFactor(
    ctx: FactorContext,
    factor: Factor,
    answer: unknown,
    origin: AuditOrigin = {},
  ): Promise<FactorContext> {
    return withMinimumDuration(this.o.settings.minimumRejectionDelayMs, async () => {
      if (ctx.state !== "FACTOR_CHALLENGE" || ctx.currentFactor !== factor.type || !factor.verify) {
        throw new PlatformError(
          "ILLEGAL_STATE_TRANSITION",
          `No ${factor.type} challenge is open for this MFA session`,
          {
            details: { state: ctx.state },
          },
        );
      }
      const failures = await this.reserve(ctx, factor.type);
      const ok = await factor.verify({ userId: ctx.userId, answer });
      return this.settle(ctx, factor.type, ok, origin, failures);
    });
  }

  /**
   * Steps the flow once an answer was judged (and, when right, spent): success or a counted failure.
   * A lost compare-and-set reloads the flow and steps again without judging twice; the flow must
   * still be waiting in the challenge of `factor`.
   */
  private async settle(
    ctx: FactorContext,
    factor: FactorType,
    ok: boolean,
    origin: AuditOrigin,
    failures: number,
  ): Promise<FactorContext> {
    const waiting = ctx.state;
    for (let attempt = 0; attempt < 20; attempt++) {
      const current = attempt === 0 ? ctx : await this.o.contexts.find(ctx.mfaSessionId);
      if (current?.state !== waiting || current.currentFactor !== factor) {
        if (current?.state === "MFA_ACCOUNT_LOCKED") throw this.locked(current);
        throw mfaError("MFA_SESSION_EXPIRED", "The MFA session has ended");
      }
      try {
        if (ok) {
          const verified = await this.step(current, "FACTOR_VERIFIED_SUCCESS", { factor });
          await this.o.lockouts.clearFailures(current.userId);
          this.events.audit("auth.mfa.factor-verified", current.primary, { factor }, origin);
          return verified;
        }
        const failed = await this.step(current, "FACTOR_VERIFICATION_FAILED", { factor });
        return await this.afterFailure(failed, factor, origin, failures);
      } catch (error) {
        if (isPlatformError(error) && error.code === "CONFLICT") continue;
        throw error;
      }
    }
    throw new PlatformError("CONFLICT", "The MFA session is too busy; try again");
  }

  /**
   * Judges a code against the current stored flow. A lost compare-and-set reloads and judges again,
   * so every attempt is counted and the answer depends only on the code and the flow's real state,
   * never on which concurrent request won.
   */
  private async judge(
    loaded: FactorContext,
    presented: unknown,
    origin: AuditOrigin,
    failures: number,
  ): Promise<FactorContext> {
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
      const codeHash = assertCodeSent(ctx);
      const ok = verifyMfaCode(presented, codeHash, ctx.mfaSessionId, this.codeOptions());
      try {
        if (ok) {
          const verified = await this.step(ctx, "FACTOR_VERIFIED_SUCCESS", { factor: "OTT" });
          await this.o.lockouts.clearFailures(ctx.userId);
          this.events.audit("auth.mfa.factor-verified", ctx.primary, { factor: "OTT" }, origin);
          return verified;
        }
        const failed = await this.step(ctx, "FACTOR_VERIFICATION_FAILED", { factor: "OTT" });
        return await this.afterFailure(failed, "OTT", origin, failures);
      } catch (error) {
        if (isPlatformError(error) && error.code === "CONFLICT") continue;
        throw error;
      }
    }
    throw new PlatformError("CONFLICT", "The MFA session is too busy; try again");
  }

  /**
   * A wrong answer (already counted by its reservation, `failures` with it): locks on the flow's limit
   * or when the user's count reached the limit.
   */
  private async afterFailure(
    failed: FactorContext,
    factor: FactorType,
    origin: AuditOrigin,
    failures: number,
  ): Promise<never> {
    const { maxRetryAttempts, accountLockoutDurationMs } = this.o.settings;
    this.events.audit(
      "auth.mfa.factor-failed",
      failed.primary,
      { factor, attemptsMade: failed.failedAttempts },
      origin,
    );
    const userLock = failures >= maxRetryAttempts ? this.o.clock.now() + accountLockoutDurationMs : undefined;
    if (failed.state !== "MFA_ACCOUNT_LOCKED" && userLock === undefined) {
      await this.events.reportError(
        "SECURITY",
        "MFA_FACTOR_VERIFICATION_FAILED",
        `A ${factor} factor failed to verify`,
        failed.userId,
        failed.mfaSessionId,
        factor,
      );
    }
    if (failed.state === "MFA_ACCOUNT_LOCKED" || userLock !== undefined) {
      await this.events.reportError(
        "LIMIT_EXCEEDED",
        "ACCOUNT_LOCKED",
        "Too many failed factors: the account is locked",
        failed.userId,
        failed.mfaSessionId,
        factor,
      );
      const until = Math.max(
        failed.lockedUntil ?? 0,
        userLock ?? 0,
        this.o.clock.now() + accountLockoutDurationMs,
      );
      await this.o.lockouts.lock(failed.userId, until);
      this.events.audit("auth.mfa.locked", failed.primary, { until }, origin);
      throw this.locked({ ...failed, lockedUntil: until });
    }
    throw this.failure(failed.failedAttempts);
  }

  /**
   * Takes one attempt for the flow's user before the answer is judged or spent: counted as the
   * member's lockout weight in failures (cleared by a right answer), across every flow of the user.
   * A user who is locked, or whose count (answers still being judged included) already reached the
   * limit, gets 423 ACCOUNT_LOCKED, even for a right answer: however many answers arrive at once,
   * at most `maxRetryAttempts` are judged per lock window. Returns the count with this attempt.
   */
  private async reserve(ctx: FactorContext, factor: FactorType): Promise<number> {
    const { maxRetryAttempts, accountLockoutDurationMs } = this.o.settings;
    const weight = this.o.factors.get(factor)?.lockoutWeight ?? 1;
    const r = await this.o.lockouts.reserveAttempt(
      ctx.userId,
      weight,
      maxRetryAttempts,
      accountLockoutDurationMs,
    );
    if ("lockedUntil" in r) throw this.locked({ ...ctx, lockedUntil: r.lockedUntil });
    return r.failures;
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

  private failure(attemptsMade: number): PlatformError {
    return mfaError("MFA_FACTOR_VERIFICATION_FAILED", "The code is not valid", {
      attemptsMade,
      maxAttempts: this.o.settings.maxRetryAttempts,
    });
  }
}

/** The open code challenge's hash; 409 ILLEGAL_STATE_TRANSITION when no code was sent (nothing counted). */
function assertCodeSent(ctx: FactorContext): string {
  if (ctx.state !== "OTT_CHALLENGE" || !ctx.challenge?.codeHash) {
    throw new PlatformError("ILLEGAL_STATE_TRANSITION", "No code was sent for this MFA session", {
      details: { state: ctx.state },
    });
  }
  return ctx.challenge.codeHash;
}
