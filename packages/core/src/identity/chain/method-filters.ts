import { PlatformError } from "../../kernel/platform-error.js";
import type { SecurityContextRepository } from "../context/security-context-repository.js";
import { csrfHiddenInput, csrfMetaTags } from "../csrf/csrf-html.js";
import { DEFAULT_URLS } from "../dsl/default-urls.js";
import { type FormLoginInternals, FormLoginOptions } from "../dsl/form-login-options.js";
import type { MethodKind } from "../dsl/method-options.js";
import type { ChainDefinition } from "../dsl/security-registry.js";
import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
  LoginContext,
} from "../handlers/authentication-handlers.js";
import type { HttpSecurity } from "../http-security/http-security.js";
import { DefaultLoginPageFilter } from "../login/default-login-page.js";
import { LoginProcessingFilter } from "../login/login-processing-filter.js";
import { createOttFilters } from "../ott/create-ott-filters.js";
import { DeliveringGenerationSuccessHandler } from "../ott/delivering-generation-success-handler.js";
import { magicLinkFor } from "../ott/magic-link.js";
import type { OneTimeToken } from "../ott/one-time-token-service.js";
import type { OttLoginOptions, PasskeyLoginOptions } from "../dsl/ott-options.js";
import { createPasskeyFilters } from "../passkey/create-passkey-filters.js";
import { MfaApiFilter } from "../../mfa/flow/mfa-api-filter.js";
import { EscalationAdminFilter, EscalationStatusFilter } from "../../mfa/escalation/escalation-filters.js";
import { completeSignIn, escalationStatusUrl } from "../../mfa/flow/mfa-answers.js";
import { MfaPasskeyFilter } from "../../mfa/flow/mfa-passkey-filter.js";
import type { MfaOptions } from "../dsl/mfa-options.js";
import type { MfaFlow } from "../../mfa/flow/mfa-flow.js";
import { MfaPagesFilter } from "../../mfa/flow/mfa-pages-filter.js";
import { PrimaryAuthenticationSuccessHandler } from "../../mfa/flow/primary-authentication-success-handler.js";
import { NullSecurityContextRepository } from "../context/security-context-repository.js";
import { statusCheckedRepository } from "../context/status-checked-repository.js";
import type { ChainDependencies } from "./chain-dependencies.js";
import type { SecurityFilter } from "./security-filter.js";

/** Each method's default login processing URL (one place: the URL provider). */
export const DEFAULT_PROCESSING_URL: Readonly<Record<MethodKind, string>> = {
  form: DEFAULT_URLS.formLoginProcessing,
  rest: DEFAULT_URLS.restLoginProcessing,
  ott: DEFAULT_URLS.ottLoginProcessing,
  passkey: DEFAULT_URLS.passkeyLoginProcessing,
  mfa: DEFAULT_URLS.formLoginProcessing,
};

/** What the method-specific part of a chain is built from. */
export interface MethodFilterInput {
  definition: ChainDefinition;
  http: HttpSecurity;
  deps: ChainDependencies;
  repository: SecurityContextRepository;
  successHandler: AuthenticationSuccessHandler;
  failureHandler: AuthenticationFailureHandler;
  context: LoginContext;
  internals: FormLoginInternals;
  processingUrl: string;
  loginPage: string;
  stateless: boolean;
  /** The MFA flow of an `.mfa()` chain. */
  mfaFlow?: MfaFlow | undefined;
}

/** The processing filters (and built-in pages) of one method's chain. */
export function methodFilters(input: MethodFilterInput): SecurityFilter[] {
  switch (input.definition.kind) {
    case "form":
    case "rest":
      return passwordFilters(input);
    case "ott":
      return ottFilters(input);
    case "passkey":
      return passkeyFilters(input);
    case "mfa":
      return mfaFilters(input);
    default:
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `.${input.definition.kind}() chains cannot be assembled in this release`,
      );
  }
}

function passwordFilters(i: MethodFilterInput): SecurityFilter[] {
  const form = i.definition.options instanceof FormLoginOptions ? i.definition.options : undefined;
  const csrfOn = !i.stateless && i.http.csrfEnabled;
  const filters: SecurityFilter[] = [
    new LoginProcessingFilter({
      name: form ? "form-login" : "rest-login",
      url: i.processingUrl,
      method: form ? "form" : "rest",
      accept: form ? (i.internals.acceptJson ? ["form", "json"] : ["form"]) : ["json"],
      usernameParameter: i.internals.usernameParameter,
      passwordParameter: i.internals.passwordParameter,
      authenticator: i.deps.authenticator,
      repository: i.repository,
      successHandler: i.successHandler,
      failureHandler: i.failureHandler,
      context: i.context,
    }),
  ];
  if (form && !form.loginPageValue) {
    filters.push(
      new DefaultLoginPageFilter(i.loginPage, async (exchange) => ({
        processingUrl: i.processingUrl,
        usernameParameter: i.internals.usernameParameter,
        passwordParameter: i.internals.passwordParameter,
        csrfMeta: csrfOn ? await csrfMetaTags(exchange) : "",
        csrfInput: csrfOn ? await csrfHiddenInput(exchange) : "",
      })),
    );
  }
  return filters;
}

function ottFilters(i: MethodFilterInput): SecurityFilter[] {
  const options = i.definition.options as OttLoginOptions;
  const ott = i.deps.ott();
  const submitPageUrl = options.defaultSubmitPageUrlValue ?? DEFAULT_URLS.ottSubmitPage;
  const link = (token: OneTimeToken): string =>
    magicLinkFor({ baseUrl: ott.publicUrl(), submitPageUrl })(token);
  return createOttFilters({
    generateUrl: options.tokenGeneratingUrlValue ?? DEFAULT_URLS.ottGenerate,
    submitPageUrl,
    showSubmitPage: options.showDefaultSubmitPageValue,
    loginProcessingUrl: i.processingUrl,
    tokenService: options.tokenServiceValue ?? ott.tokenService,
    generationSuccessHandler:
      options.tokenGenerationSuccessHandlerValue ??
      new DeliveringGenerationSuccessHandler({
        delivery: ott.delivery,
        linkFor: link,
        submitPageUrl,
        clock: ott.clock,
        audit: i.deps.audit,
        logger: ott.logger,
      }),
    limiter: ott.limiter,
    throttle: ott.throttle,
    users: ott.users,
    clock: ott.clock,
    audit: i.deps.audit,
    repository: i.repository,
    successHandler: i.successHandler,
    failureHandler: i.failureHandler,
    context: i.context,
    csrfEnabled: !i.stateless && i.http.csrfEnabled,
  });
}

function passkeyFilters(i: MethodFilterInput): SecurityFilter[] {
  const options = i.definition.options as PasskeyLoginOptions;
  return createPasskeyFilters({
    service: i.deps.passkeyService(options),
    repository: i.repository,
    successHandler: i.successHandler,
    failureHandler: i.failureHandler,
    context: i.context,
    assertionOptionsEndpoint: options.assertionOptionsEndpointValue ?? DEFAULT_URLS.passkeyAssertionOptions,
    loginProcessingUrl: i.processingUrl,
  });
}

/**
 * An MFA chain: the primary step (form or REST) saves nothing (not final) and hands over to the
 * flow's policy; the MFA endpoints and pages; the final step saves by state type.
 */
function mfaFilters(i: MethodFilterInput): SecurityFilter[] {
  const flow = i.mfaFlow!;
  const { runtime, enrolledFactors, escalations } = i.deps.mfa();
  const form = flow.primaryKind === "form";
  const stepUp = {
    sessionRepository: i.deps.sessionRepository,
    tokens: i.deps.tokens,
    statusCheck: i.deps.statusCheck,
  };
  const api = new MfaApiFilter({ flow, runtime, finalRepository: i.repository, context: i.context, stepUp });
  const passkeyStep = (i.definition.options as MfaOptions).factors.find((f) => f.type === "passkey");
  const passkey = passkeyStep
    ? [
        new MfaPasskeyFilter({
          flow,
          runtime,
          passkeys: i.deps.passkeyService(passkeyStep.options as PasskeyLoginOptions),
          finalRepository: i.repository,
          context: i.context,
          guard: (exchange, run) => api.guard(exchange, run),
          stepUp,
        }),
      ]
    : [];
  return [
    new LoginProcessingFilter({
      name: form ? "mfa-form-login" : "mfa-rest-login",
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
    }),
    api,
    ...passkey,
    new EscalationStatusFilter({
      service: escalations,
      statusUrl: escalationStatusUrl(flow),
      complete: (exchange, escalation) =>
        completeSignIn(exchange, escalation.primary, flow, i.repository, i.context, runtime),
    }),
    new EscalationAdminFilter({ service: escalations }),
    new MfaPagesFilter({
      flow,
      runtime,
      csrfEnabled: !i.stateless && i.http.csrfEnabled,
      enrolledFactors,
      passkeyLogin: i.deps.passkeyLogin,
    }),
  ];
}
