import { currentAuthentication } from "../../identity/authentication/authentication.js";
import type { NextFilter, SecurityFilter } from "../../identity/chain/security-filter.js";
import { csrfToken } from "../../identity/csrf/csrf-token.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { FactorType } from "../factor-type.js";
import { mfaFailureReasonFor, renderMfaFailurePage } from "../pages/mfa-failure-page.js";
import { renderMfaConfigurePage } from "../pages/mfa-configure-page.js";
import { type PasskeyLoginUrls, renderMfaLoginPage } from "../pages/mfa-login-page.js";
import { renderOttChallengePage } from "../pages/ott-challenge-page.js";
import { renderPasskeyChallengePage } from "../pages/passkey-challenge-page.js";
import { renderOttRequestCodePage } from "../pages/ott-request-code-page.js";
import { renderSelectFactorPage } from "../pages/select-factor-page.js";
import type { FactorContext } from "../state/factor-context.js";
import { selectableFactors } from "../state/factor-context.js";
import { nextStepUrl } from "./mfa-answers.js";
import type { MfaFlow } from "./mfa-flow.js";
import type { MfaRuntime } from "./mfa-runtime.js";

/** Which factors a user has enrolled (for the configure page). */
export type EnrolledFactors = (userId: string) => Promise<readonly FactorType[]>;

/**
 * The MFA pages of one flow (GET): the primary login page (unless the host has its own), factor
 * selection, OTT request and challenge, the failure page and the configure page. A page for a state
 * the flow is not in sends the browser to the right one; without a live flow, to the login page.
 */
export class MfaPagesFilter implements SecurityFilter {
  readonly name = "mfa-pages";

  constructor(
    private readonly o: {
      flow: MfaFlow;
      runtime: MfaRuntime;
      csrfEnabled: boolean;
      enrolledFactors: EnrolledFactors;
      /** A passkey chain's endpoints: the login page then offers passkey autofill and a button. */
      passkeyLogin?: PasskeyLoginUrls | undefined;
    },
  ) {}

  async filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    if (exchange.method !== "GET" && exchange.method !== "HEAD") return next();
    const { urls } = this.o.flow;
    const pages = [
      urls.selectFactorPage,
      urls.ottRequestCodePage,
      urls.ottChallengePage,
      urls.passkeyChallengePage,
      urls.failurePage,
      urls.configurePage,
    ];
    if (!pages.includes(exchange.path) && !(urls.generateLoginPage && exchange.path === urls.formLoginPage))
      return next();
    // Only the flow's own pages get a CSRF token (and so a session); other GETs create nothing.
    const csrf = this.o.csrfEnabled ? await csrfToken(exchange)?.value() : undefined;
    switch (exchange.path) {
      case urls.formLoginPage:
        if (!urls.generateLoginPage) return next();
        return exchange.html(
          200,
          renderMfaLoginPage({
            csrfToken: csrf,
            processingUrl: urls.primaryLoginProcessing,
            selectFactorUrl: urls.selectFactorPage,
            tokenPersistence: "memory",
            mfaSdkRequired: this.o.flow.primaryKind === "rest",
            error: exchange.query.has("error") ? "Invalid username or password." : undefined,
            status: exchange.query.has("logout") ? "You have been signed out." : undefined,
            passkeyLogin: this.o.passkeyLogin,
          }),
        );
      case urls.selectFactorPage:
        return this.inFlow(exchange, (ctx) =>
          renderSelectFactorPage({
            csrfToken: csrf,
            mfaSessionId: ctx.mfaSessionId,
            selectFactorUrl: urls.selectFactor,
            cancelUrl: urls.cancel,
            factors: ctx.availableFactors,
            completedFactors: ctx.completedFactors.map((f) => f.type),
            requiredFactors: ctx.requiredFactors,
            username: ctx.username,
            error: exchange.query.has("error") ? "That did not work; choose a method." : undefined,
          }),
        );
      case urls.ottRequestCodePage:
        return this.inFlow(exchange, (ctx) =>
          renderOttRequestCodePage({
            csrfToken: csrf,
            mfaSessionId: ctx.mfaSessionId,
            generateCodeUrl: urls.ottGenerateCode,
            cancelUrl: urls.cancel,
            destination: ctx.username,
            codeLength: this.o.runtime.settings.otpTokenLength,
            selectFactorPageUrl: selectableFactors(ctx).length > 1 ? urls.selectFactorPage : undefined,
          }),
        );
      case urls.ottChallengePage:
        return this.inFlow(exchange, (ctx) =>
          renderOttChallengePage({
            csrfToken: csrf,
            mfaSessionId: ctx.mfaSessionId,
            loginProcessingUrl: urls.ottLoginProcessing,
            generateCodeUrl: urls.ottGenerateCode,
            failureUrl: urls.failurePage,
            cancelUrl: urls.cancel,
            codeLength: this.o.runtime.settings.otpTokenLength,
            attemptsMade: ctx.failedAttempts,
            maxAttempts: this.o.runtime.settings.maxRetryAttempts,
            destination: ctx.username,
            selectFactorPageUrl: selectableFactors(ctx).length > 1 ? urls.selectFactorPage : undefined,
            error: exchange.query.has("error") ? "The code is not valid." : undefined,
          }),
        );
      case urls.passkeyChallengePage:
        return this.inFlow(exchange, (ctx) =>
          renderPasskeyChallengePage({
            csrfToken: csrf,
            mfaSessionId: ctx.mfaSessionId,
            loginProcessingUrl: urls.passkeyLoginProcessing,
            assertionOptionsUrl: urls.passkeyAssertionOptions,
            failureUrl: urls.failurePage,
            cancelUrl: urls.cancel,
            selectFactorPageUrl: selectableFactors(ctx).length > 1 ? urls.selectFactorPage : undefined,
            error: exchange.query.has("error") ? "The passkey could not be verified." : undefined,
          }),
        );
      case urls.failurePage: {
        const state = exchange.query.get("state") ?? "MFA_FAILED_TERMINAL";
        return exchange.html(
          200,
          renderMfaFailurePage({
            csrfToken: csrf,
            reason: mfaFailureReasonFor(state.slice(0, 40)),
            loginPageUrl: urls.formLoginPage,
          }),
        );
      }
      case urls.configurePage: {
        const who = currentAuthentication(exchange);
        if (!who) {
          exchange.redirect(urls.formLoginPage);
          return;
        }
        const enrolled = await this.o.enrolledFactors(who.userId);
        return exchange.html(
          200,
          renderMfaConfigurePage({
            csrfToken: csrf,
            username: who.username,
            factors: this.o.flow.factors.map((type) => ({ type, enrolled: enrolled.includes(type) })),
            passkeyManagementUrl: urls.passkeyManagementPage,
            successUrl: urls.successUrl,
          }),
        );
      }
      default:
        return next();
    }
  }

  /** Renders a page of the caller's live flow, or redirects to where the flow really is. */
  private async inFlow(exchange: HttpExchange, render: (ctx: FactorContext) => string): Promise<void> {
    let ctx: FactorContext;
    try {
      ctx = await this.o.runtime.load(exchange, this.o.flow);
    } catch (error) {
      if (!isPlatformError(error) || error.code === "INTERNAL_ERROR") throw error;
      const state = error.code === "MFA_TIMEOUT" ? "MFA_TIMEOUT" : "MFA_SESSION_EXPIRED";
      exchange.redirect(
        error.code === "MFA_SESSION_REQUIRED"
          ? this.o.flow.urls.formLoginPage
          : `${this.o.flow.urls.failurePage}?state=${state}`,
      );
      return;
    }
    const expected = nextStepUrl(ctx, this.o.flow);
    // "Try another method": the selection page opens from a running challenge when another factor is left.
    const tryingAnother =
      exchange.path === this.o.flow.urls.selectFactorPage &&
      ["AWAITING_CHALLENGE_INITIATION", "OTT_CHALLENGE", "PASSKEY_CHALLENGE"].includes(ctx.state) &&
      selectableFactors(ctx).length > 1;
    if (expected !== exchange.path && !tryingAnother) {
      exchange.redirect(expected);
      return;
    }
    exchange.response.headers.set("cache-control", "no-store");
    exchange.html(200, render(ctx));
  }
}
