import { PlatformError } from "../../kernel/platform-error.js";
import { antMatcher, anyRequest, orMatcher, type RequestMatcher } from "../../web/request-matcher.js";
import { ExceptionTranslationFilter } from "../asep/exception-translation-filter.js";
import { SecurityContextFilter } from "../context/security-context-filter.js";
import {
  NullSecurityContextRepository,
  type SecurityContextRepository,
} from "../context/security-context-repository.js";
import { SessionSavedRequest } from "../context/saved-request.js";
import { statusCheckedRepository } from "../context/status-checked-repository.js";
import { CorsFilter } from "../cors/cors-filter.js";
import { DEFAULT_URLS } from "../dsl/default-urls.js";
import { type FormLoginInternals, FormLoginOptions } from "../dsl/form-login-options.js";
import { OttLoginOptions } from "../dsl/ott-options.js";
import { MfaOptions } from "../dsl/mfa-options.js";
import { buildMfaFlow } from "../../mfa/flow/build-mfa-flow.js";
import type { MfaFlow } from "../../mfa/flow/mfa-flow.js";
import { mfaUrlList } from "../../mfa/urls/mfa-urls.js";
import type { ChainDefinition } from "../dsl/security-registry.js";
import { SecurityHeadersFilter } from "../headers/security-headers-filter.js";
import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
  LoginContext,
} from "../handlers/authentication-handlers.js";
import {
  OAuth2SingleAuthFailureHandler,
  OAuth2SingleAuthSuccessHandler,
} from "../handlers/oauth2-handlers.js";
import {
  SessionAuthenticationFailureHandler,
  SessionAuthenticationSuccessHandler,
} from "../handlers/session-handlers.js";
import { rules } from "../http-security/authorization-manager.js";
import { AuthorizationFilter } from "../http-security/authorization-filter.js";
import { HttpSecurity } from "../http-security/http-security.js";
import { LogoutFilter } from "../login/logout-filter.js";
import { MeEndpointFilter } from "../login/me-endpoint-filter.js";
import { TokenEndpointsFilter } from "../login/token-endpoints-filter.js";
import type { ChainDependencies } from "./chain-dependencies.js";
import { BearerAwareCsrfFilter } from "./bearer-aware-csrf-filter.js";
import { attachToContainer } from "./container-aware.js";
import { DEFAULT_PROCESSING_URL, methodFilters } from "./method-filters.js";
import type { SecurityFilter } from "./security-filter.js";
import { SecurityFilterChain } from "./security-filter-chain.js";

/**
 * Builds the runtime chain of one DSL registration. Defaults by state type: session chains
 * keep the context in the session with the framework's default handlers; `.oauth2()` chains are
 * stateless (null repository), CSRF-exempt, and answer with the OAuth2 single-auth handlers. DSL options
 * apply first, then every `rawHttp` customizer in order.
 */
export function assembleChain(definition: ChainDefinition, deps: ChainDependencies): SecurityFilterChain {
  const { options } = definition;
  const oauth2 = definition.state === "oauth2";
  const http = new HttpSecurity({
    sessionCreationPolicy: oauth2 ? "stateless" : "ifRequired",
    csrf: !oauth2,
  });
  if (options.csrfSetting) http.csrf(options.csrfSetting);
  if (options.corsSetting !== undefined) http.cors(options.corsSetting);
  if (options.headersSetting !== undefined) http.headers(options.headersSetting);
  if (options.logoutSetting) http.logout(options.logoutSetting);
  http.authorization.now = () => deps.clock.now();
  for (const customize of options.rawHttpCustomizers) customize(http);
  for (const rule of http.authorization.rules) attachToContainer(rule.manager, deps.container);
  for (const added of http.addedFilters) attachToContainer(added.filter, deps.container);

  const stateless = http.sessionCreationPolicy === "stateless";
  const baseRepository: SecurityContextRepository =
    options.securityContextRepositoryValue ??
    (stateless ? new NullSecurityContextRepository() : deps.sessionRepository);
  const saved = stateless ? undefined : new SessionSavedRequest(deps.sessions);
  const form =
    options instanceof FormLoginOptions
      ? options
      : options instanceof MfaOptions
        ? options.primary.form
        : undefined;
  const internals: FormLoginInternals = {
    usernameParameter: form?.usernameParameterValue ?? "username",
    passwordParameter: form?.passwordParameterValue ?? "password",
    acceptJson: true,
  };
  for (const customize of form?.rawFormLoginCustomizers ?? []) customize(internals);

  let successHandler: AuthenticationSuccessHandler =
    options.successHandlerValue ??
    (oauth2
      ? new OAuth2SingleAuthSuccessHandler(deps.tokens)
      : new SessionAuthenticationSuccessHandler(saved!.take));
  const failureHandler: AuthenticationFailureHandler =
    options.failureHandlerValue ??
    (oauth2 ? new OAuth2SingleAuthFailureHandler() : new SessionAuthenticationFailureHandler());
  const mfaFlow =
    definition.kind === "mfa"
      ? buildMfaFlow(definition, {
          policy: deps.mfa().policy,
          pageUrls: deps.mfa().pageUrls,
          successHandler,
          failureHandler,
        })
      : undefined;
  if (mfaFlow) deps.mfa().onFlow(mfaFlow);
  let repository = baseRepository;
  const gate = definition.kind === "mfa" ? undefined : deps.mfaGate?.(definition.state);
  if (gate) {
    // No bypass: a single-auth chain hands a challenged user into the MFA flow instead of signing in.
    repository = gate.repository(baseRepository, { stateless });
    successHandler = gate.successHandler(successHandler, failureHandler);
  }
  // Outermost: a user refused at the sign-in checkpoint gets no session, no MFA challenge, no token.
  repository = statusCheckedRepository(repository, deps.statusCheck);

  const loginPage = mfaFlow ? mfaFlow.urls.formLoginPage : loginPageOf(definition);
  const processingUrl = mfaFlow
    ? mfaFlow.urls.primaryLoginProcessing
    : (options.loginProcessingUrlValue ?? DEFAULT_PROCESSING_URL[definition.kind]);
  const context: LoginContext = {
    chainId: definition.id,
    loginPage,
    defaultSuccessUrl: options.defaultSuccessUrlValue,
    alwaysUseDefaultSuccessUrl: options.alwaysUseDefaultSuccessUrl,
    failureUrl: options.failureUrlValue,
  };
  const filters: SecurityFilter[] = [];
  if (http.headerSettings !== false) filters.push(new SecurityHeadersFilter(http.headerSettings));
  if (http.corsSettings) filters.push(new CorsFilter(http.corsSettings));
  filters.push(
    new ExceptionTranslationFilter({
      handling: options.asepAttributes.toHandling(),
      loginPage: definition.kind !== "rest" && !stateless ? loginPage : undefined,
      saveRequest: saved?.save,
      bearer: oauth2,
    }),
  );
  // An MFA chain serves the logout URL its flow advertises (`<prefix>/logout`, `<prefix>/api/logout`).
  const logoutUrl = http.logoutSettings.enabled
    ? (http.logoutSettings.logoutUrl ??
      mfaFlow?.urls.logout ??
      (definition.kind === "rest" ? DEFAULT_URLS.restLogout : DEFAULT_URLS.logout))
    : undefined;
  // The `request` checkpoint: every authenticated request on this chain, whatever its rules, but the
  // ways out (logout, and token revocation on token chains).
  const revokeUrl = oauth2 ? DEFAULT_URLS.tokenRevoke : undefined;
  filters.push(
    new SecurityContextFilter(repository, deps.tokens, {
      gate: deps.statusCheck,
      exempt: (exchange) =>
        exchange.method === "POST" && (exchange.path === logoutUrl || exchange.path === revokeUrl),
    }),
  );
  if (http.csrfEnabled && !stateless) {
    filters.push(new BearerAwareCsrfFilter(deps.csrfTokens, http.csrfIgnoring));
  }
  if (logoutUrl !== undefined) {
    filters.push(
      new LogoutFilter({
        url: logoutUrl,
        successUrl:
          http.logoutSettings.logoutSuccessUrl ?? (definition.kind === "rest" ? "/" : `${loginPage}?logout`),
        repository,
        tokens: oauth2 ? deps.tokens : undefined,
        revokeBearer: deps.tokens,
        // Read at logout time: members come from later plugins (MFA ends pending flows).
        onLogout: async (exchange) => {
          for (const hook of deps.logoutHooks()) await hook.onLogout(exchange);
        },
        audit: deps.audit,
      }),
    );
  }
  filters.push(
    ...methodFilters({
      definition,
      http,
      deps,
      repository,
      successHandler,
      failureHandler,
      context,
      internals,
      processingUrl,
      loginPage,
      stateless,
      mfaFlow,
    }),
  );
  if (oauth2) {
    filters.push(
      new TokenEndpointsFilter({
        refreshUrl: DEFAULT_URLS.tokenRefresh,
        revokeUrl: DEFAULT_URLS.tokenRevoke,
        tokens: deps.tokens,
        statusCheck: deps.statusCheck,
      }),
    );
  }
  filters.push(new MeEndpointFilter(DEFAULT_URLS.me, deps.statusCheck));
  const authorizationRules = [...http.authorization.rules];
  if (form?.permitAllValue) {
    authorizationRules.unshift(
      { matcher: antMatcher(loginPage), manager: rules.permitAll() },
      { matcher: antMatcher(processingUrl, "POST"), manager: rules.permitAll() },
    );
  }
  filters.push(
    new AuthorizationFilter(authorizationRules, deps.audit, (exchange, authentication) =>
      deps.stepUp ? deps.stepUp(exchange, authentication) : Promise.resolve(undefined),
    ),
  );

  return new SecurityFilterChain(
    definition.id,
    options.orderValue,
    definition.index,
    http.matcher ?? (mfaFlow ? mfaMatcher(mfaFlow) : anyRequest()),
    placeAddedFilters(filters, http.addedFilters),
  );
}

function placeAddedFilters(filters: SecurityFilter[], added: HttpSecurity["addedFilters"]): SecurityFilter[] {
  const out = [...filters];
  for (const { filter, position, anchor } of added) {
    const at = out.findIndex((f) => f.name === anchor);
    if (at === -1) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `No filter named "${anchor}" to add ${filter.name} ${position}`,
        {
          details: { filters: out.map((f) => f.name) },
        },
      );
    }
    out.splice(position === "after" ? at + 1 : at, 0, filter);
  }
  return out;
}

function loginPageOf(definition: ChainDefinition): string {
  const { options } = definition;
  if (options instanceof FormLoginOptions) return options.loginPageValue ?? DEFAULT_URLS.formLoginPage;
  if (options instanceof OttLoginOptions)
    return options.defaultSubmitPageUrlValue ?? DEFAULT_URLS.ottSubmitPage;
  return DEFAULT_URLS.formLoginPage;
}

/** An MFA flow with a urlPrefix matches `<prefix>/**` (and any explicit URL outside it); else every request. */
function mfaMatcher(flow: MfaFlow): RequestMatcher {
  const prefix = flow.urls.urlPrefix;
  if (!prefix) return anyRequest();
  const outside = mfaUrlList(flow.urls).filter((u) => !u.startsWith(`${prefix}/`));
  return orMatcher(antMatcher(`${prefix}/**`), ...outside.map((u) => antMatcher(u)));
}
