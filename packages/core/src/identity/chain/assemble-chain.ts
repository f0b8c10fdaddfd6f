import { PlatformError } from "../../kernel/platform-error.js";
import { antMatcher, anyRequest } from "../../web/request-matcher.js";
import { ExceptionTranslationFilter } from "../asep/exception-translation-filter.js";
import { SecurityContextFilter } from "../context/security-context-filter.js";
import {
  NullSecurityContextRepository,
  type SecurityContextRepository,
} from "../context/security-context-repository.js";
import { SessionSavedRequest } from "../context/saved-request.js";
import { signInPublishingRepository } from "../context/sign-in-publishing-repository.js";
import { statusCheckedRepository } from "../context/status-checked-repository.js";
import { CorsFilter } from "../cors/cors-filter.js";
import { DEFAULT_URLS } from "../dsl/default-urls.js";
import type { FormLoginInternals } from "../dsl/form-login-options.js";
import type { ChainDefinition } from "../dsl/security-registry.js";
import { SecurityHeadersFilter } from "../headers/security-headers-filter.js";
import type { LoginContext } from "../handlers/authentication-handlers.js";
import {
  OAuth2SingleAuthFailureHandler,
  OAuth2SingleAuthSuccessHandler,
} from "../handlers/oauth2-handlers.js";
import {
  SessionAuthenticationFailureHandler,
  SessionAuthenticationSuccessHandler,
} from "../handlers/session-handlers.js";
import { rules } from "../http-security/authorization-manager.js";
import { ContributedRule } from "../http-security/contributed-rule.js";
import { AuthorizationFilter } from "../http-security/authorization-filter.js";
import { HttpSecurity } from "../http-security/http-security.js";
import { LogoutEndpoint } from "../login/logout-endpoint.js";
import { MeEndpoint } from "../login/me-endpoint.js";
import { accountRoutesOf } from "./account-route-source.js";
import { TokenEndpoints } from "../login/token-endpoints.js";
import type { ChainDependencies } from "./chain-dependencies.js";
import { errorTranslation } from "../../web/error-translation.js";
import { BearerAwareCsrfFilter } from "./bearer-aware-csrf-filter.js";
import {
  AuthorizedEntryRoutesFilter,
  type ChainRoute,
  ChainRoutesFilter,
  declareChainRoutes,
  isRouteMount,
} from "./chain-route.js";
import { attachToContainer } from "./container-aware.js";
import type { SecurityFilter } from "./security-filter.js";
import { type RequestCheckpoint, SecurityFilterChain } from "./security-filter-chain.js";
import type { SignInFilterInput, SignInMethod, SignInPlan } from "./sign-in-method.js";

/** One chain's common parts, before the sign-in method's filters are added. */
interface ChainParts {
  readonly http: HttpSecurity;
  readonly stateless: boolean;
  readonly oauth2: boolean;
  readonly plan: SignInPlan;
  readonly input: SignInFilterInput;
  /** Where a session chain keeps the request that sent a caller to the login page. */
  readonly saved: SessionSavedRequest | undefined;
  /** The chain's logout URL (`POST`), unless logout is off. */
  readonly logoutUrl: string | undefined;
}

/**
 * Builds the runtime chain of one DSL registration, a fixed pipeline: headers → CORS → exception
 * translation → security context → CSRF → the chain's entry points → authorization. The entry
 * points are routes in the platform's RouteTable under the chain's id (logout, the sign-in method's
 * processing URLs and pages, the token endpoints, `/api/me`), served by one filter after one lookup;
 * routes mounted with `addFilterAfter(mount, "authorization")` are declared there too and served by
 * their mount. Session chains keep the context in the session with the session handlers;
 * `.oauth2()` chains are stateless (null repository), CSRF-exempt, and answer with the token
 * handlers. DSL options apply first, then every `rawHttp` customizer in order. The sign-in method
 * plans the URLs and contributes its routes; the chain hooks (MFA) wrap single-factor chains.
 */
export function assembleChain(
  definition: ChainDefinition,
  method: SignInMethod,
  deps: ChainDependencies,
): SecurityFilterChain {
  const parts = chainParts(definition, method, deps);
  const { http, plan, input } = parts;
  const table = deps.routeTable;
  const entry = entryRoutes(parts);
  const filters: SecurityFilter[] = [
    ...entryFilters(definition, parts),
    ...(plan.filters?.(input) ?? []),
    new ChainRoutesFilter(definition.id, table),
    authorizationFilter(definition, parts),
    // Administrators' entry routes (escalation review) are served once the chain's rules allowed them.
    ...(entry.some((r) => r.access === "admin") ? [new AuthorizedEntryRoutesFilter()] : []),
  ];
  const placed = placeAddedFilters(filters, http.addedFilters);
  declareChainRoutes(table, definition.id, "entry", entry);
  const mounted = http.addedFilters.flatMap(({ filter }) => (isRouteMount(filter) ? filter.routes() : []));
  declareChainRoutes(table, definition.id, "mounted", mounted);
  return new SecurityFilterChain(
    definition.id,
    definition.options.orderValue,
    definition.index,
    http.matcher ?? plan.matcher ?? anyRequest(),
    placed,
    requestCheckpoint(parts),
  );
}

/**
 * The `request` checkpoint: every authenticated request on this chain, whatever its rules, but the
 * ways out (logout, and token revocation on token chains).
 */
function requestCheckpoint(parts: ChainParts): RequestCheckpoint {
  const { oauth2, logoutUrl, input } = parts;
  const revokeUrl = oauth2 ? DEFAULT_URLS.tokenRevoke : undefined;
  const exemptPosts = new Set<string>();
  if (logoutUrl !== undefined) exemptPosts.add(logoutUrl);
  if (revokeUrl !== undefined) exemptPosts.add(revokeUrl);
  return { gate: input.deps.requestStatusCheck ?? input.deps.statusCheck, exemptPosts };
}

/** The chain's entry points: logout, the sign-in method's routes, the token endpoints, `/api/me`. */
function entryRoutes(parts: ChainParts): ChainRoute[] {
  const { http, oauth2, plan, input, logoutUrl } = parts;
  const { deps, repository } = input;
  const routes: ChainRoute[] = [];
  if (logoutUrl !== undefined) {
    const logout = new LogoutEndpoint({
      url: logoutUrl,
      successUrl: http.logoutSettings.logoutSuccessUrl ?? plan.logoutSuccessUrl ?? `${plan.loginPage}?logout`,
      repository,
      tokens: oauth2 ? deps.tokens : undefined,
      revokeBearer: deps.tokens,
      // Read at logout time: members come from later plugins (MFA ends pending flows).
      onLogout: async (exchange) => {
        for (const hook of deps.logoutHooks()) await hook.onLogout(exchange);
      },
      audit: deps.audit,
    });
    routes.push(...logout.routes());
  }
  routes.push(...(plan.routes?.(input) ?? []));
  if (oauth2) {
    const tokens = new TokenEndpoints({
      refreshUrl: DEFAULT_URLS.tokenRefresh,
      revokeUrl: DEFAULT_URLS.tokenRevoke,
      tokens: deps.tokens,
      statusCheck: deps.statusCheck,
    });
    routes.push(...tokens.routes());
  }
  routes.push(...new MeEndpoint(DEFAULT_URLS.me, deps.statusCheck).routes());
  routes.push(...accountRoutesOf(deps.container));
  return routes;
}

/** The chain's HttpSecurity (DSL options, then `rawHttp` customizers), its plan and the method's input. */
function chainParts(definition: ChainDefinition, method: SignInMethod, deps: ChainDependencies): ChainParts {
  const { options } = definition;
  const oauth2 = definition.state === "oauth2";
  const http = new HttpSecurity({
    sessionCreationPolicy: oauth2 ? "stateless" : "ifRequired",
    csrf: !oauth2,
    contributedRules: deps.container?.isRegistered(ContributedRule, true)
      ? deps.container.resolveAll(ContributedRule)
      : [],
  });
  if (options.csrfSetting) http.csrf(options.csrfSetting);
  if (options.corsSetting !== undefined) http.cors(options.corsSetting);
  if (options.headersSetting !== undefined) http.headers(options.headersSetting);
  if (options.logoutSetting) http.logout(options.logoutSetting);
  for (const customize of options.rawHttpCustomizers) customize(http);
  for (const rule of http.authorization.rules) attachToContainer(rule.manager, deps.container);
  for (const added of http.addedFilters) attachToContainer(added.filter, deps.container);

  const stateless = http.sessionCreationPolicy === "stateless";
  const baseRepository: SecurityContextRepository =
    options.securityContextRepositoryValue ??
    (stateless ? new NullSecurityContextRepository() : deps.sessionRepository);
  const saved = stateless ? undefined : new SessionSavedRequest(deps.sessions);
  const failureHandler =
    options.failureHandlerValue ??
    (oauth2 ? new OAuth2SingleAuthFailureHandler() : new SessionAuthenticationFailureHandler());
  let successHandler =
    options.successHandlerValue ??
    (oauth2
      ? new OAuth2SingleAuthSuccessHandler(deps.tokens)
      : new SessionAuthenticationSuccessHandler(saved!.take));
  const plan = method.plan(definition, { successHandler, failureHandler });
  // Innermost: a sign-in is published once stored, past every gate (MFA, then the checkpoint below).
  let repository = signInPublishingRepository(baseRepository, deps.events);
  if (!method.multiFactor) {
    for (const hook of deps.hooks()) {
      const wrapped = hook.afterPrimaryAuthentication?.(
        { state: definition.state, stateless },
        { repository, successHandler, failureHandler },
      );
      if (wrapped) ({ repository, successHandler } = wrapped);
    }
  }
  // Outermost: a user refused at the sign-in checkpoint gets no session, no MFA challenge, no token.
  repository = statusCheckedRepository(repository, deps.statusCheck);
  const context: LoginContext = {
    chainId: definition.id,
    loginPage: plan.loginPage,
    defaultSuccessUrl: options.defaultSuccessUrlValue,
    alwaysUseDefaultSuccessUrl: options.alwaysUseDefaultSuccessUrl,
    failureUrl: options.failureUrlValue,
  };
  const input: SignInFilterInput = {
    definition,
    http,
    deps,
    repository,
    successHandler,
    failureHandler,
    context,
    internals: formInternals(definition),
    processingUrl: plan.processingUrl,
    loginPage: plan.loginPage,
    stateless,
    csrfEnabled: !stateless && http.csrfEnabled,
  };
  const logoutUrl = http.logoutSettings.enabled
    ? (http.logoutSettings.logoutUrl ?? plan.logoutUrl ?? DEFAULT_URLS.logout)
    : undefined;
  return { http, stateless, oauth2, plan, input, saved, logoutUrl };
}

/** The parameter names of the chain's form step (a form, or a flow's form primary step), after `rawFormLogin`. */
function formInternals(definition: ChainDefinition): FormLoginInternals {
  const form = definition.options.formStep();
  const internals: FormLoginInternals = {
    usernameParameter: form?.usernameParameterValue ?? "username",
    passwordParameter: form?.passwordParameterValue ?? "password",
    acceptJson: true,
  };
  for (const customize of form?.rawFormLoginCustomizers ?? []) customize(internals);
  return internals;
}

/** Headers, CORS, exception translation, the security context and CSRF. */
function entryFilters(definition: ChainDefinition, parts: ChainParts): SecurityFilter[] {
  const { http, stateless, oauth2, plan, input } = parts;
  const { deps, repository } = input;
  const filters: SecurityFilter[] = [];
  if (http.headerSettings !== false) filters.push(new SecurityHeadersFilter(http.headerSettings));
  if (http.corsSettings) filters.push(new CorsFilter(http.corsSettings));
  filters.push(
    new ExceptionTranslationFilter({
      handling: definition.options.asepAttributes.toHandling(),
      loginPage: plan.redirectsToLoginPage && !stateless ? plan.loginPage : undefined,
      saveRequest: parts.saved?.save,
      saveStepUpReturn: parts.saved
        ? (exchange, url) => parts.saved!.saveStepUpReturn(exchange, url)
        : undefined,
      bearer: oauth2,
      translate: errorTranslation(deps.container),
    }),
  );
  filters.push(new SecurityContextFilter(repository, deps.tokens, { standing: deps.standing }));
  if (input.csrfEnabled) filters.push(new BearerAwareCsrfFilter(deps.csrfTokens, http.csrfIgnoring));
  return filters;
}

/** The chain's rules (a form's `permitAll` first), and the hooks' step-up on a denial. */
function authorizationFilter(definition: ChainDefinition, parts: ChainParts): AuthorizationFilter {
  const { http, plan, input } = parts;
  const { deps } = input;
  const authorizationRules = [...http.authorization.rules];
  if (definition.options.formStep()?.permitAllValue) {
    authorizationRules.unshift(
      { matcher: antMatcher(plan.loginPage), manager: rules.permitAll(), tag: { kind: "permitAll" } },
      {
        matcher: antMatcher(plan.processingUrl, "POST"),
        manager: rules.permitAll(),
        tag: { kind: "permitAll" },
      },
    );
  }
  return new AuthorizationFilter(
    authorizationRules,
    deps.audit,
    async (exchange, authentication) => {
      // Read at denial time: the hooks exist once the multi-factor chains are assembled.
      for (const hook of deps.hooks()) {
        const started = await hook.onAccessDenied?.(exchange, authentication);
        if (started) return started;
      }
      return undefined;
    },
    deps.events,
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
