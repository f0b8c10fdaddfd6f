import type { ChainRoute } from "../../identity/chain/chain-route.js";
import type { SecurityContextRepository } from "../../identity/context/security-context-repository.js";
import { correlated } from "../../identity/events/correlated.js";
import type { LoginContext } from "../../identity/handlers/authentication-handlers.js";
import type { PasskeyService } from "../../identity/passkey/passkey-service.js";
import { setChallengeCookie, takeChallengeCookie } from "../../identity/passkey/webauthn-challenge-cookie.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { PublicKeyRequestOptionsJson } from "../../web/wire/passkey-messages.js";
import { completeFlow, writeMfaStep } from "./mfa-answers.js";
import { assertStepUpCaller, completeStepUp, type StepUpCompletion } from "./mfa-step-up.js";
import type { MfaFlow } from "./mfa-flow.js";
import type { MfaRuntime } from "./mfa-runtime.js";
import { MFA_CONTRACTS } from "../mfa-contracts.js";

/**
 * The passkey as a second factor: `POST <passkeyAssertionOptions>` issues assertion options for the
 * flow's user, bound to the caller's MFA session (only in PASSKEY_CHALLENGE); `POST
 * /login/mfa-webauthn` takes the browser's assertion JSON. The credential must belong to the flow's
 * user; the MFA state machine, not the security context repository, holds the state.
 */
export class MfaPasskeyEndpoints {
  constructor(
    private readonly o: {
      flow: MfaFlow;
      runtime: MfaRuntime;
      passkeys: PasskeyService;
      finalRepository: SecurityContextRepository;
      context: LoginContext;
      /** Runs an MFA step, turning client errors into the flow's failure answers. */
      guard: (exchange: HttpExchange, run: () => Promise<void>) => Promise<void>;
      stepUp?: StepUpCompletion;
    },
  ) {}

  /** `POST` assertion options and `POST` the assertion, each inside the flow's guard. */
  routes(): ChainRoute[] {
    const { urls } = this.o.flow;
    const common = { method: "POST", feature: "mfa", access: "mfa-flow" } as const;
    return [
      {
        ...common,
        path: urls.passkeyAssertionOptions,
        name: "mfa.passkey-assertion-options",
        meta: { contract: MFA_CONTRACTS.passkeyOptions },
        description: "Passkey assertion options for the flow's user (passkey as a second factor)",
        handler: (exchange) => this.o.guard(exchange, () => this.options(exchange)),
      },
      {
        ...common,
        path: urls.passkeyLoginProcessing,
        name: "mfa.passkey-verify",
        meta: { contract: MFA_CONTRACTS.passkeyVerify },
        description: "Verifies the flow user's passkey assertion",
        handler: (exchange) => this.o.guard(exchange, () => this.verify(exchange)),
      },
    ];
  }

  private async options(exchange: HttpExchange): Promise<void> {
    const ctx = await this.o.runtime.load(exchange, this.o.flow, exchange.header("x-mfa-session-id"));
    if (ctx.state !== "PASSKEY_CHALLENGE") {
      throw new PlatformError("ILLEGAL_STATE_TRANSITION", "Select the passkey factor first", {
        details: { state: ctx.state },
      });
    }
    // The flow's user is known (the password came first): the options list that user's passkeys.
    const issued = await this.o.passkeys.authenticationOptionsForUser(ctx);
    setChallengeCookie(exchange, issued.challengeId, issued.expiresAt - Date.now());
    exchange.response.headers.set("cache-control", "no-store");
    const options: PublicKeyRequestOptionsJson = { ...issued.options, mfaSessionId: ctx.mfaSessionId };
    exchange.json(200, options);
  }

  private async verify(exchange: HttpExchange): Promise<void> {
    const body = await exchange.fields(["json"]);
    const ctx = await this.o.runtime.load(exchange, this.o.flow, body.mfaSessionId);
    await assertStepUpCaller(exchange, ctx, this.o.runtime);
    const credential = body.credential ?? body;
    const challengeId = takeChallengeCookie(exchange);
    const verified = await this.o.runtime.verifyPasskey(
      ctx,
      () =>
        this.o.passkeys.verifyAuthentication(challengeId, credential, {
          remoteAddress: exchange.remoteAddress,
          ...correlated(exchange),
        }),
      correlated(exchange),
    );
    const { flow, runtime, finalRepository, context } = this.o;
    if (verified.state === "MFA_SUCCESSFUL" && verified.purpose === "step-up" && this.o.stepUp) {
      await completeStepUp(exchange, verified, runtime, this.o.stepUp);
      return;
    }
    if (verified.state === "MFA_SUCCESSFUL") {
      await completeFlow(exchange, verified, flow, runtime, finalRepository, context);
      return;
    }
    writeMfaStep(exchange, await runtime.startNextFactor(verified, flow, correlated(exchange)), flow, false);
  }
}
