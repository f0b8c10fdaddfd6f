import type { ChainRoute } from "../../identity/chain/chain-route.js";
import type { SecurityContextRepository } from "../../identity/context/security-context-repository.js";
import { failureTypeOf } from "../../identity/authentication/failure-type.js";
import type { LoginContext } from "../../identity/handlers/authentication-handlers.js";
import { correlated } from "../../identity/events/correlated.js";
import type { PlatformError } from "../../kernel/platform-error.js";
import { errorCatalogOf, isClientError } from "../../web/exchange-error-catalog.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { MfaStatusBody } from "../../web/wire/mfa-messages.js";
import { withMinimumDuration } from "../codes/min-delay.js";
import { codeNameOf } from "../factor-family/factor.js";
import type { FactorContext } from "../state/factor-context.js";
import { selectableFactors } from "../state/factor-context.js";
import { mfaConfigJson } from "../urls/mfa-config-json.js";
import { answersMfaJson, completeFlow, nextStepUrl, writeMfaStep } from "./mfa-answers.js";
import { assertStepUpCaller, completeStepUp, type StepUpCompletion } from "./mfa-step-up.js";
import type { MfaFlow } from "./mfa-flow.js";
import type { MfaRuntime } from "./mfa-runtime.js";
import type { RouteContract } from "../../web/route-contract.js";
import { MFA_CONTRACTS } from "../mfa-contracts.js";

/** The contracts of the flow's steps, by route name (`mfa.<name>`). */
const STEP_CONTRACTS: Record<string, RouteContract> = {
  "select-factor": MFA_CONTRACTS.selectFactor,
  "ott-generate-code": MFA_CONTRACTS.generateCode,
  "ott-verify-code": MFA_CONTRACTS.verifyCode,
  cancel: MFA_CONTRACTS.cancel,
};

/**
 * The MFA endpoints of one flow: `GET config`, `GET status`, `POST select-factor`,
 * `POST ott/generate-code`, `POST login/mfa-ott`, `POST cancel`. JSON clients get JSON; browsers are
 * redirected to the next page (a wrong code back to the challenge page with `?error`).
 */
export class MfaApiEndpoints {
  constructor(
    private readonly o: {
      flow: MfaFlow;
      runtime: MfaRuntime;
      finalRepository: SecurityContextRepository;
      context: LoginContext;
      /** How a step-up ends (upgrade the session, or a new access token). */
      stepUp?: StepUpCompletion;
    },
  ) {}

  /** The flow's API routes (the steps run inside `guard`, which answers the flow's failures). */
  routes(): ChainRoute[] {
    const { urls } = this.o.flow;
    const step = (
      path: string,
      name: string,
      description: string,
      run: (exchange: HttpExchange) => Promise<void>,
    ): ChainRoute => ({
      method: "POST",
      path,
      name: `mfa.${name}`,
      description,
      meta: { contract: STEP_CONTRACTS[name] },
      feature: "mfa",
      access: "mfa-flow",
      handler: (exchange) => this.guard(exchange, () => run(exchange)),
    });
    return [
      {
        method: "GET",
        path: urls.config,
        name: "mfa.config",
        meta: { contract: MFA_CONTRACTS.config },
        description: "The flow's URLs, factors and required factor count, for the SDK",
        feature: "mfa",
        access: "public",
        handler: (exchange) => this.config(exchange),
      },
      {
        method: "GET",
        path: urls.status,
        name: "mfa.status",
        meta: { contract: MFA_CONTRACTS.status },
        description: "The caller's MFA flow: state, factors done and missing, next step",
        feature: "mfa",
        access: "mfa-flow",
        handler: (exchange) => this.status(exchange),
      },
      step(urls.selectFactor, "select-factor", "Chooses the next factor", (x) => this.selectFactor(x)),
      step(urls.ottGenerateCode, "ott-generate-code", "Sends a code to the flow's user", (x) =>
        this.generateCode(x),
      ),
      step(urls.ottLoginProcessing, "ott-verify-code", "Verifies an emailed code", (x) => this.verifyCode(x)),
      step(urls.cancel, "cancel", "Cancels the caller's MFA flow", (x) => this.cancel(x)),
      ...this.genericFactorRoutes(),
    ];
  }

  /** `POST <factor's verify URL>` of each generic factor of the flow (e.g. `/login/mfa-totp`). */
  private genericFactorRoutes(): ChainRoute[] {
    return this.o.flow.factorMembers.flatMap((member) => {
      const urls = this.o.flow.factorUrls[member.type];
      if (!urls) return [];
      const name = `factor-verify-${member.type.toLowerCase().replaceAll("_", "-")}`;
      return [
        {
          method: "POST" as const,
          path: urls.verify,
          name: `mfa.${name}`,
          description: `Verifies the flow user's ${codeNameOf(member.label)}`,
          meta: { contract: MFA_CONTRACTS.verifyCode },
          feature: "mfa",
          access: "mfa-flow" as const,
          handler: (exchange: HttpExchange) =>
            this.guard(exchange, () => this.verifyFactor(exchange, member.type)),
        },
      ];
    });
  }

  private async verifyFactor(exchange: HttpExchange, factor: string): Promise<void> {
    const fields = await exchange.fields();
    const ctx = await this.o.runtime.load(exchange, this.o.flow, fields.mfaSessionId);
    await assertStepUpCaller(exchange, ctx, this.o.runtime);
    const answer = fields.token ?? fields.code;
    const verified = await this.o.runtime.verifyFactor(ctx, factor, answer, correlated(exchange));
    await this.advance(exchange, verified);
  }

  private config(exchange: HttpExchange): void {
    const { flow } = this.o;
    exchange.json(200, {
      ...mfaConfigJson(flow.urls, {
        typeName: flow.typeName,
        factors: flow.factors,
        requiredFactors: flow.requiredFactors,
        members: flow.factorMembers,
      }),
    });
  }

  private async status(exchange: HttpExchange): Promise<void> {
    const ctx = await this.o.runtime.load(exchange, this.o.flow);
    exchange.response.headers.set("cache-control", "no-store");
    const body: MfaStatusBody = {
      mfaSessionId: ctx.mfaSessionId,
      state: ctx.state,
      currentFactor: ctx.currentFactor ?? null,
      satisfied: ctx.completedFactors.map((f) => f.type),
      missing: Math.max(0, ctx.requiredFactors - ctx.completedFactors.length),
      allowed: selectableFactors(ctx),
      requiredFactors: ctx.requiredFactors,
      attemptsMade: ctx.failedAttempts,
      maxAttempts: this.o.runtime.settings.maxRetryAttempts,
      nextStepUrl: nextStepUrl(ctx, this.o.flow),
    };
    exchange.json(200, body);
  }

  private async selectFactor(exchange: HttpExchange): Promise<void> {
    const fields = await exchange.fields();
    const ctx = await this.o.runtime.load(exchange, this.o.flow, fields.mfaSessionId);
    const factor = this.o.runtime.factors.parse(fields.factorType ?? fields.factor);
    writeMfaStep(
      exchange,
      await this.o.runtime.select(ctx, factor, this.o.flow, correlated(exchange)),
      this.o.flow,
      false,
    );
  }

  private async generateCode(exchange: HttpExchange): Promise<void> {
    const fields = await exchange.fields();
    const ctx = await this.o.runtime.load(exchange, this.o.flow, fields.mfaSessionId);
    // The per-flow code limit lives in the runtime's sendCode, which every path that sends goes through.
    writeMfaStep(
      exchange,
      await this.o.runtime.sendCode(ctx, this.o.flow, correlated(exchange)),
      this.o.flow,
      false,
    );
  }

  private async verifyCode(exchange: HttpExchange): Promise<void> {
    const fields = await exchange.fields();
    const ctx = await this.o.runtime.load(exchange, this.o.flow, fields.mfaSessionId);
    await assertStepUpCaller(exchange, ctx, this.o.runtime);
    const verified = await this.o.runtime.verifyCode(ctx, fields.token, correlated(exchange));
    await this.advance(exchange, verified);
  }

  private async cancel(exchange: HttpExchange): Promise<void> {
    const fields = await exchange.fields();
    const ctx = await this.o.runtime.load(exchange, this.o.flow, fields.mfaSessionId);
    const cancelled = await this.o.runtime.cancel(ctx, correlated(exchange));
    await this.o.runtime.finish(exchange, cancelled);
    const target = `${this.o.flow.urls.failurePage}?state=${cancelled.state}`;
    if (answersMfaJson(exchange))
      exchange.json(200, { success: true, state: cancelled.state, redirectUrl: target });
    else exchange.redirect(target);
  }

  /** After a verified factor: complete when all required factors are done, else start the next. */
  private async advance(exchange: HttpExchange, ctx: FactorContext): Promise<void> {
    const { flow, runtime, finalRepository, context } = this.o;
    if (ctx.state === "MFA_SUCCESSFUL" && ctx.purpose === "step-up" && this.o.stepUp) {
      await completeStepUp(exchange, ctx, runtime, this.o.stepUp);
      return;
    }
    if (ctx.state === "MFA_SUCCESSFUL") {
      await completeFlow(exchange, ctx, flow, runtime, finalRepository, context);
      return;
    }
    writeMfaStep(exchange, await runtime.startNextFactor(ctx, flow, correlated(exchange)), flow, false);
  }

  /** Runs an MFA step: client errors become JSON failure bodies, or browsers go back to the right page. */
  async guard(exchange: HttpExchange, run: () => Promise<void>): Promise<void> {
    try {
      // Every rejection of an MFA step is answered no sooner than the minimum delay.
      await withMinimumDuration(this.o.runtime.settings.minimumRejectionDelayMs, run);
    } catch (error) {
      if (!isClientError(error, exchange)) {
        await this.o.runtime.reportError("SYSTEM", "INTERNAL_ERROR", "An MFA step failed unexpectedly");
        throw error;
      }
      this.answerFailure(exchange, error);
    }
  }

  private answerFailure(exchange: HttpExchange, error: PlatformError): void {
    const { urls } = this.o.flow;
    const details = error.details ?? {};
    if (answersMfaJson(exchange)) {
      const retry = details.retryAfterSeconds;
      if (typeof retry === "number")
        exchange.response.headers.set("retry-after", String(Math.max(1, Math.ceil(retry))));
      exchange.json(errorCatalogOf(exchange).statusOfError(error), {
        ...details,
        success: false,
        error: error.message,
        failureType:
          error.code === "MFA_FACTOR_VERIFICATION_FAILED"
            ? "MFA_FACTOR_VERIFICATION_FAILED"
            : failureTypeOf(error),
        code: error.code,
      });
      return;
    }
    if (error.code === "MFA_FACTOR_VERIFICATION_FAILED") {
      const generic = Object.values(this.o.flow.factorUrls).find((u) => u.verify === exchange.path);
      const page =
        generic?.challengePage ??
        (exchange.path === urls.passkeyLoginProcessing ? urls.passkeyChallengePage : urls.ottChallengePage);
      exchange.redirect(`${page}?error`);
    } else if (error.code === "ACCOUNT_LOCKED")
      exchange.redirect(`${urls.failurePage}?state=MFA_ACCOUNT_LOCKED`);
    else if (error.code === "MFA_TIMEOUT") exchange.redirect(`${urls.failurePage}?state=MFA_TIMEOUT`);
    else if (error.code.startsWith("MFA_SESSION") || error.code === "MFA_SIGN_IN_ENDED")
      exchange.redirect(`${urls.failurePage}?state=MFA_SESSION_EXPIRED`);
    else exchange.redirect(`${urls.selectFactorPage}?error`);
  }
}
