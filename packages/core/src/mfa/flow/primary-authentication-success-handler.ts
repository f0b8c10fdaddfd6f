import type { Authentication } from "../../identity/authentication/authentication.js";
import type { SecurityContextRepository } from "../../identity/context/security-context-repository.js";
import type {
  AuthenticationSuccessHandler,
  LoginContext,
} from "../../identity/handlers/authentication-handlers.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { completeSignIn, writeEscalated, writeMfaStep } from "./mfa-answers.js";
import type { MfaFlow } from "./mfa-flow.js";
import type { MfaRuntime } from "./mfa-runtime.js";

/**
 * The MFA primary step's success handler: nothing was
 * saved yet (primary is not final); the policy decides: no MFA completes sign-in by state type, a
 * challenge answers "MFA required", a block goes to the flow's failure handler.
 */
export class PrimaryAuthenticationSuccessHandler implements AuthenticationSuccessHandler {
  constructor(
    private readonly runtime: MfaRuntime,
    private readonly flow: MfaFlow,
    private readonly finalRepository: SecurityContextRepository,
  ) {}

  async onSuccess(
    exchange: HttpExchange,
    authentication: Authentication,
    context: LoginContext,
  ): Promise<void> {
    let result: Awaited<ReturnType<MfaRuntime["begin"]>>;
    try {
      result = await this.runtime.begin(exchange, authentication, this.flow);
    } catch (error) {
      if (!isPlatformError(error)) throw error;
      await this.flow.failureHandler.onFailure(exchange, error, context);
      return;
    }
    if (result.kind === "complete") {
      await completeSignIn(exchange, authentication, this.flow, this.finalRepository, context, this.runtime);
      return;
    }
    if (result.kind === "escalated") writeEscalated(exchange, this.flow, result.binding);
    else writeMfaStep(exchange, result.context, this.flow, true, result.binding);
  }
}
