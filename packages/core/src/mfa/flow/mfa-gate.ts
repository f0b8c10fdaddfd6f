import {
  type Authentication,
  setCurrentAuthentication,
} from "../../identity/authentication/authentication.js";
import type { PlatformError } from "../../kernel/platform-error.js";
import { isClientError } from "../../web/exchange-error-catalog.js";
import type { SecurityContextRepository } from "../../identity/context/security-context-repository.js";
import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
  LoginContext,
} from "../../identity/handlers/authentication-handlers.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { writeEscalated, writeMfaStep } from "./mfa-answers.js";
import type { MfaFlow } from "./mfa-flow.js";
import type { MfaRuntime, StartedChallenge } from "./mfa-runtime.js";

const PENDING = "platform.mfa.pending";

/** A held (ESCALATED) sign-in: the caller's escalation binding value. */
interface Escalated {
  escalated: string;
}
const REFUSED = "platform.mfa.refused";

/**
 * The no-bypass rule (deliberate, so that no sign-in method skips MFA): every single-auth chain asks
 * the MFA policy after its primary authentication. A challenged user gets no session or token from
 * that chain; the chain answers "MFA required" and hands the user into the MFA flow. A user-verified
 * passkey sign-in satisfies MFA by itself when `platform.auth.mfa.passkeySatisfiesMfa` is true.
 */
export class MfaGate {
  constructor(
    private readonly runtime: MfaRuntime,
    private readonly flow: MfaFlow,
  ) {}

  /**
   * Wraps a chain's repository: saves only when no second factor is due. A `stateless` chain
   * (`.oauth2()`) answers without cookies, so its sign-ins get no device cookie.
   */
  repository(
    inner: SecurityContextRepository,
    options: { stateless?: boolean } = {},
  ): SecurityContextRepository {
    const issueDeviceCookie = options.stateless !== true;
    return {
      name: `${inner.name}+mfa-gate`,
      load: (exchange) => inner.load(exchange),
      clear: (exchange) => inner.clear(exchange),
      save: async (exchange, authentication) => {
        let pending: StartedChallenge | Escalated | undefined;
        try {
          pending = await this.check(exchange, authentication);
        } catch (error) {
          // Refused (locked, blocked): answered by the chain's failure handler, nothing saved.
          if (!isClientError(error, exchange)) throw error;
          exchange.attributes.set(REFUSED, error);
          return;
        }
        if (pending) exchange.attributes.set(PENDING, pending);
        else {
          await inner.save(exchange, authentication);
          await this.runtime.recordSignIn(exchange, authentication, issueDeviceCookie);
        }
      },
    };
  }

  /**
   * Wraps a chain's success handler: answers "MFA required" when the gate held the sign-in back, and
   * hands a refusal (MFA lock, blocked) to the chain's failure handler like any failed sign-in.
   */
  successHandler(
    inner: AuthenticationSuccessHandler,
    failure: AuthenticationFailureHandler,
  ): AuthenticationSuccessHandler {
    return {
      onSuccess: async (exchange: HttpExchange, authentication: Authentication, context: LoginContext) => {
        const refused = exchange.attributes.get(REFUSED) as PlatformError | undefined;
        if (refused) {
          setCurrentAuthentication(exchange, undefined);
          await failure.onFailure(exchange, refused, context);
          return;
        }
        const pending = exchange.attributes.get(PENDING) as StartedChallenge | Escalated | undefined;
        if (pending && "escalated" in pending) {
          setCurrentAuthentication(exchange, undefined);
          writeEscalated(exchange, this.flow, pending.escalated);
        } else if (pending) {
          setCurrentAuthentication(exchange, undefined);
          writeMfaStep(exchange, pending.context, this.flow, true, pending.binding);
        } else await inner.onSuccess(exchange, authentication, context);
      },
    };
  }

  private async check(
    exchange: HttpExchange,
    authentication: Authentication,
  ): Promise<StartedChallenge | Escalated | undefined> {
    if (authentication.method === "passkey" && this.runtime.settings.passkeySatisfiesMfa) {
      const locked = await this.runtime.begin(
        exchange,
        { ...authentication },
        { ...this.flow, policy: noMfa },
      );
      return locked.kind === "challenged" ? locked : undefined;
    }
    const result = await this.runtime.begin(exchange, authentication, this.flow);
    if (result.kind === "escalated") return { escalated: result.binding };
    return result.kind === "challenged" ? result : undefined;
  }
}

/** A policy that never challenges (the lockout check in `begin` still applies). */
const noMfa = {
  evaluateInitialMfaRequirement: async () => ({
    type: "NO_MFA_REQUIRED" as const,
    reason: "a user-verified passkey satisfies MFA",
  }),
};
