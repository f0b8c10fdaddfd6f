import { currentAuthentication } from "../../identity/authentication/authentication.js";
import { type ChainRoute, pageRoutes } from "../../identity/chain/chain-route.js";
import { csrfToken } from "../../identity/csrf/csrf-token.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { codeNameOf, type FactorDescription } from "../factor-family/factor.js";
import type { FactorType } from "../factor-type.js";
import { mfaFailureReasonFor, renderMfaFailurePage } from "../pages/mfa-failure-page.js";
import { renderMfaConfigurePage } from "../pages/mfa-configure-page.js";
import { type PasskeyLoginUrls, renderMfaLoginPage } from "../pages/mfa-login-page.js";
import { renderOttChallengePage } from "../pages/ott-challenge-page.js";
import { renderPasskeyChallengePage } from "../pages/passkey-challenge-page.js";
import { renderOttRequestCodePage } from "../pages/ott-request-code-page.js";
import { renderSelectFactorPage } from "../pages/select-factor-page.js";
import { renderFactorCodeChallengePage } from "../pages/factor-code-challenge-page.js";
import type { FactorContext } from "../state/factor-context.js";
import { selectableFactors } from "../state/factor-context.js";
import { nextStepUrl } from "./mfa-answers.js";
import type { MfaFlow } from "./mfa-flow.js";
import type { MfaRuntime } from "./mfa-runtime.js";

/** One page: writes the answer; `undefined` marks a path the flow passes on (a host's login page). */
type PageHandler = ((exchange: HttpExchange, csrf: string | undefined) => Promise<void> | void) | undefined;

/** A page of the table: its route name, description and handler. */
interface Page {
  readonly name: string;
  readonly description: string;
  readonly handler: PageHandler;
}

/** Which factors a user has enrolled (for the configure page). */
export type EnrolledFactors = (userId: string) => Promise<readonly FactorType[]>;

/**
 * The MFA pages of one flow (GET): the primary login page (unless the host has its own), factor
 * selection, OTT request and challenge, the failure page and the configure page. A page for a state
 * the flow is not in sends the browser to the right one; without a live flow, to the login page.
 */
export class MfaPages {
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

  /**
   * The flow's pages (GET and HEAD each), one route per path: the first page of a path wins (the
   * login page first). A host's own login page is not ours: no route, so the path passes on to the
   * host's route, and it still shadows a flow page of the same path.
   */
  routes(): ChainRoute[] {
    const routes: ChainRoute[] = [];
    for (const [path, page] of this.pageTable()) {
      const handler = page.handler;
      if (!handler) continue;
      routes.push(
        ...pageRoutes({
          path,
          name: `mfa.${page.name}`,
          description: page.description,
          feature: "mfa",
          access: page.name === "login-page" ? "public" : "mfa-flow",
          handler: async (exchange) => {
            // Only the flow's own pages get a CSRF token (and so a session); other GETs create nothing.
            const csrf = this.o.csrfEnabled ? await csrfToken(exchange)?.value() : undefined;
            await handler(exchange, csrf);
          },
        }),
      );
    }
    return routes;
  }

  private pageTable(): ReadonlyMap<string, Page> {
    const { urls } = this.o.flow;
    const table = new Map<string, Page>();
    const add = (path: string, name: string, description: string, handler: PageHandler) => {
      if (!table.has(path)) table.set(path, { name, description, handler });
    };
    if (urls.generateLoginPage) {
      add(urls.formLoginPage, "login-page", "The MFA flow's sign-in page", (exchange, csrf) =>
        this.loginPage(exchange, csrf),
      );
    } else if (this.isFlowPage(urls.formLoginPage)) add(urls.formLoginPage, "login-page", "", undefined);
    add(urls.selectFactorPage, "select-factor-page", "Choose the second factor", (exchange, csrf) =>
      this.selectFactorPage(exchange, csrf),
    );
    add(urls.ottRequestCodePage, "ott-request-code-page", "Ask for an emailed code", (exchange, csrf) =>
      this.ottRequestCodePage(exchange, csrf),
    );
    add(urls.ottChallengePage, "ott-challenge-page", "Enter the emailed code", (exchange, csrf) =>
      this.ottChallengePage(exchange, csrf),
    );
    add(
      urls.passkeyChallengePage,
      "passkey-challenge-page",
      "Use a passkey as second factor",
      (exchange, csrf) => this.passkeyChallengePage(exchange, csrf),
    );
    for (const member of this.o.flow.factorMembers) {
      const own = this.o.flow.factorUrls[member.type];
      if (!own) continue;
      const name = `factor-challenge-page-${member.type.toLowerCase().replaceAll("_", "-")}`;
      add(own.challengePage, name, `Enter the ${codeNameOf(member.label)}`, (exchange, csrf) =>
        this.factorChallengePage(exchange, csrf, member, own.verify),
      );
    }
    add(urls.failurePage, "failure-page", "Why the MFA sign-in failed", (exchange, csrf) =>
      this.failurePage(exchange, csrf),
    );
    add(urls.configurePage, "configure-page", "The signed-in user's enrolled factors", (exchange, csrf) =>
      this.configurePage(exchange, csrf),
    );
    return table;
  }

  private isFlowPage(path: string): boolean {
    const { urls } = this.o.flow;
    return [
      urls.selectFactorPage,
      urls.ottRequestCodePage,
      urls.ottChallengePage,
      urls.passkeyChallengePage,
      urls.failurePage,
      urls.configurePage,
      ...Object.values(this.o.flow.factorUrls).map((u) => u.challengePage),
    ].includes(path);
  }

  private async loginPage(exchange: HttpExchange, csrf: string | undefined): Promise<void> {
    const { urls } = this.o.flow;
    exchange.html(
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
  }

  private selectFactorPage(exchange: HttpExchange, csrf: string | undefined): Promise<void> {
    const { urls } = this.o.flow;
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
        labels: this.labels(),
      }),
    );
  }

  private ottRequestCodePage(exchange: HttpExchange, csrf: string | undefined): Promise<void> {
    const { urls } = this.o.flow;
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
  }

  private ottChallengePage(exchange: HttpExchange, csrf: string | undefined): Promise<void> {
    const { urls } = this.o.flow;
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
  }

  private passkeyChallengePage(exchange: HttpExchange, csrf: string | undefined): Promise<void> {
    const { urls } = this.o.flow;
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
  }

  private factorChallengePage(
    exchange: HttpExchange,
    csrf: string | undefined,
    member: FactorDescription,
    verifyUrl: string,
  ): Promise<void> {
    const { urls } = this.o.flow;
    return this.inFlow(exchange, (ctx) =>
      renderFactorCodeChallengePage({
        csrfToken: csrf,
        mfaSessionId: ctx.mfaSessionId,
        label: member.label,
        instructions: member.codeEntry?.instructions,
        inputMode: member.codeEntry?.inputMode,
        verifyUrl,
        failureUrl: urls.failurePage,
        cancelUrl: urls.cancel,
        attemptsMade: ctx.failedAttempts,
        maxAttempts: this.o.runtime.settings.maxRetryAttempts,
        selectFactorPageUrl: selectableFactors(ctx).length > 1 ? urls.selectFactorPage : undefined,
        error: exchange.query.has("error") ? "The code is not valid." : undefined,
      }),
    );
  }

  /** The family's labels of the flow's factors. */
  private labels(): Record<FactorType, string> {
    return Object.fromEntries(this.o.flow.factorMembers.map((m) => [m.type, m.label]));
  }

  private failurePage(exchange: HttpExchange, csrf: string | undefined): void {
    const state = exchange.query.get("state") ?? "MFA_FAILED_TERMINAL";
    exchange.html(
      200,
      renderMfaFailurePage({
        csrfToken: csrf,
        reason: mfaFailureReasonFor(state.slice(0, 40)),
        loginPageUrl: this.o.flow.urls.formLoginPage,
      }),
    );
  }

  private async configurePage(exchange: HttpExchange, csrf: string | undefined): Promise<void> {
    const { urls } = this.o.flow;
    const who = currentAuthentication(exchange);
    if (!who) {
      exchange.redirect(urls.formLoginPage);
      return;
    }
    const enrolled = await this.o.enrolledFactors(who.userId);
    exchange.html(
      200,
      renderMfaConfigurePage({
        csrfToken: csrf,
        username: who.username,
        factors: this.o.flow.factors.map((type) => ({ type, enrolled: enrolled.includes(type) })),
        passkeyManagementUrl: urls.passkeyManagementPage,
        successUrl: urls.successUrl,
        labels: this.labels(),
      }),
    );
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
      ["AWAITING_CHALLENGE_INITIATION", "OTT_CHALLENGE", "PASSKEY_CHALLENGE", "FACTOR_CHALLENGE"].includes(
        ctx.state,
      ) &&
      selectableFactors(ctx).length > 1;
    if (expected !== exchange.path && !tryingAnother) {
      exchange.redirect(expected);
      return;
    }
    exchange.response.headers.set("cache-control", "no-store");
    exchange.html(200, render(ctx));
  }
}
