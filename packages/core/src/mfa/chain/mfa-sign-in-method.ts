import { SessionSavedRequest } from "../../identity/context/saved-request.js";
import type { DependencyContainer } from "tsyringe";
import type { ChainRoute } from "../../identity/chain/chain-route.js";
import type {
  SignInFilterInput,
  SignInHandlers,
  SignInMethod,
  SignInPlan,
} from "../../identity/chain/sign-in-method.js";
import { NullSecurityContextRepository } from "../../identity/context/security-context-repository.js";
import { statusCheckedRepository } from "../../identity/context/status-checked-repository.js";
import { DEFAULT_URLS } from "../../identity/dsl/default-urls.js";
import type { MfaOptions } from "../dsl/mfa-options.js";
import type { PasskeyLoginOptions } from "../../identity/dsl/ott-options.js";
import { type ChainDefinition, SecurityConfiguration } from "../../identity/dsl/security-registry.js";
import { LoginProcessing } from "../../identity/login/login-processing.js";
import type { PlatformProperties } from "../../kernel/properties.js";
import { antMatcher, anyRequest, orMatcher, type RequestMatcher } from "../../web/request-matcher.js";
import { MfaPolicyProvider } from "../decision/mfa-policy-provider.js";
import { EscalationAdminEndpoints, EscalationStatusEndpoint } from "../escalation/escalation-endpoints.js";
import { EscalationService } from "../escalation/escalation-service.js";
import { buildMfaFlow } from "../flow/build-mfa-flow.js";
import { completeSignIn, escalationStatusUrl } from "../flow/mfa-answers.js";
import { MfaApiEndpoints } from "../flow/mfa-api-endpoints.js";
import type { MfaFlow } from "../flow/mfa-flow.js";
import { type EnrolledFactors, MfaPages } from "../flow/mfa-pages.js";
import { MfaPasskeyEndpoints } from "../flow/mfa-passkey-endpoints.js";
import { MfaRuntime } from "../flow/mfa-runtime.js";
import { PrimaryAuthenticationSuccessHandler } from "../flow/primary-authentication-success-handler.js";
import { mfaPageUrlsFromProperties } from "../mfa-pages.properties.js";
import { mfaUrlList } from "../urls/mfa-urls.js";
import type { MfaFlows } from "./mfa-flows.js";
import { FACTOR_CATALOG } from "../factor-family/factor-catalog.js";

/** The first passkey chain's sign-in endpoints, offered on the MFA login page (autofill). */
type PasskeyLogin = { readonly assertionOptions: string; readonly loginProcessing: string };

/**
 * `.mfa()`: a primary step (form or REST) that saves nothing and hands over to the flow's policy, the
 * MFA API and pages, escalations, and the final save by the chain's state type. Every planned flow
 * is added to MfaFlows, in order: the chain hook hands other chains' challenged users to them.
 */
export class MfaSignInMethod implements SignInMethod {
  readonly kind = "mfa";
  readonly multiFactor = true;
  readonly builtIn = true;

  constructor(
    private readonly container: DependencyContainer,
    private readonly properties: PlatformProperties,
    /** Where every planned flow goes (the chain hook gates the other chains into them). */
    private readonly flows: MfaFlows,
  ) {}

  plan(definition: ChainDefinition, handlers: SignInHandlers): SignInPlan {
    const flow = buildMfaFlow(definition, {
      policy: this.container.resolve(MfaPolicyProvider),
      pageUrls: mfaPageUrlsFromProperties(this.properties),
      successHandler: handlers.successHandler,
      failureHandler: handlers.failureHandler,
      factors: this.container.resolve(FACTOR_CATALOG).members(),
    });
    this.flows.add(flow);
    return {
      loginPage: flow.urls.formLoginPage,
      processingUrl: flow.urls.primaryLoginProcessing,
      redirectsToLoginPage: true,
      // An MFA chain serves the logout URL its flow advertises (`<prefix>/logout`, `<prefix>/api/logout`).
      logoutUrl: flow.urls.logout,
      matcher: mfaMatcher(flow),
      routes: (input) => this.routes(input, flow),
    };
  }

  private routes(i: SignInFilterInput, flow: MfaFlow): ChainRoute[] {
    const c = this.container;
    const runtime = c.resolve(MfaRuntime);
    const escalations = c.resolve(EscalationService);
    const factors = c.resolve(FACTOR_CATALOG);
    const enrolledFactors: EnrolledFactors = (userId) => factors.enrolledFor(userId);
    const form = flow.primaryKind === "form";
    const stepUp = {
      sessionRepository: i.deps.sessionRepository,
      tokens: i.deps.tokens,
      statusCheck: i.deps.statusCheck,
      takeStepUpReturn: new SessionSavedRequest(i.deps.sessions).takeStepUpReturn,
    };
    const api = new MfaApiEndpoints({
      flow,
      runtime,
      finalRepository: i.repository,
      context: i.context,
      stepUp,
    });
    const passkeyStep = (i.definition.options as MfaOptions).factors.find((f) => f.type === "passkey");
    const passkey = passkeyStep
      ? new MfaPasskeyEndpoints({
          flow,
          runtime,
          passkeys: i.deps.passkeyService(passkeyStep.options as PasskeyLoginOptions),
          finalRepository: i.repository,
          context: i.context,
          guard: (exchange, run) => api.guard(exchange, run),
          stepUp,
        }).routes()
      : [];
    return [
      ...new LoginProcessing({
        name: "mfa.primary-login",
        feature: "mfa",
        url: flow.urls.primaryLoginProcessing,
        method: form ? "form" : "rest",
        accept: form ? (i.internals.acceptJson ? ["form", "json"] : ["form"]) : ["json"],
        usernameParameter: i.internals.usernameParameter,
        passwordParameter: i.internals.passwordParameter,
        authenticator: i.deps.authenticator,
        // Checked here too, so a refused user gets no MFA challenge (no code is sent).
        repository: statusCheckedRepository(new NullSecurityContextRepository(), i.deps.statusCheck),
        successHandler: new PrimaryAuthenticationSuccessHandler(runtime, flow, i.repository),
        failureHandler: flow.failureHandler,
        context: i.context,
      }).routes(),
      ...api.routes(),
      ...passkey,
      ...new EscalationStatusEndpoint({
        service: escalations,
        statusUrl: escalationStatusUrl(flow),
        complete: (exchange, escalation) =>
          completeSignIn(exchange, escalation.primary, flow, i.repository, i.context, runtime),
      }).routes(),
      ...new EscalationAdminEndpoints({ service: escalations }).routes(),
      ...new MfaPages({
        flow,
        runtime,
        csrfEnabled: i.csrfEnabled,
        enrolledFactors,
        passkeyLogin: this.passkeyLogin(),
      }).routes(),
    ];
  }

  private passkeyLogin(): PasskeyLogin | undefined {
    const c = this.container;
    const chains = c.isRegistered(SecurityConfiguration, false)
      ? c.resolve(SecurityConfiguration).chains
      : [];
    const chain = chains.find((d) => d.kind === "passkey");
    if (!chain) return undefined;
    const options = chain.options as PasskeyLoginOptions;
    return {
      assertionOptions: options.assertionOptionsEndpointValue ?? DEFAULT_URLS.passkeyAssertionOptions,
      loginProcessing: options.loginProcessingUrlValue ?? DEFAULT_URLS.passkeyLoginProcessing,
    };
  }
}

/** An MFA flow with a urlPrefix matches `<prefix>/**` (and any explicit URL outside it); else every request. */
function mfaMatcher(flow: MfaFlow): RequestMatcher {
  const prefix = flow.urls.urlPrefix;
  if (!prefix) return anyRequest();
  const outside = mfaUrlList(flow.urls).filter((u) => !u.startsWith(`${prefix}/`));
  return orMatcher(antMatcher(`${prefix}/**`), ...outside.map((u) => antMatcher(u)));
}
