import type { ChainRoute } from "../chain/chain-route.js";
import type { SignInFilterInput, SignInMethod, SignInPlan } from "../chain/sign-in-method.js";
import { csrfHiddenInput, csrfMetaTags } from "../csrf/csrf-html.js";
import { DEFAULT_URLS } from "../dsl/default-urls.js";
import { FormLoginOptions } from "../dsl/form-login-options.js";
import type { ChainDefinition } from "../dsl/security-registry.js";
import { DefaultLoginPage } from "./default-login-page.js";
import { LoginProcessing } from "./login-processing.js";

/** `.form()`: username and password posted from a page (the built-in one unless `loginPage` is set). */
export const formSignInMethod: SignInMethod = {
  kind: "form",
  builtIn: true,
  plan(definition: ChainDefinition): SignInPlan {
    const options = definition.options as FormLoginOptions;
    const loginPage = options.loginPageValue ?? DEFAULT_URLS.formLoginPage;
    const processingUrl = options.loginProcessingUrlValue ?? DEFAULT_URLS.formLoginProcessing;
    return { loginPage, processingUrl, redirectsToLoginPage: true, routes: passwordRoutes };
  },
};

/** `.rest()`: username and password as JSON; unauthenticated callers get 401, never a redirect. */
export const restSignInMethod: SignInMethod = {
  kind: "rest",
  builtIn: true,
  plan(definition: ChainDefinition): SignInPlan {
    return {
      loginPage: DEFAULT_URLS.formLoginPage,
      processingUrl: definition.options.loginProcessingUrlValue ?? DEFAULT_URLS.restLoginProcessing,
      redirectsToLoginPage: false,
      logoutUrl: DEFAULT_URLS.restLogout,
      logoutSuccessUrl: "/",
      routes: passwordRoutes,
    };
  },
};

function passwordRoutes(i: SignInFilterInput): ChainRoute[] {
  const form = i.definition.options instanceof FormLoginOptions ? i.definition.options : undefined;
  const routes: ChainRoute[] = new LoginProcessing({
    name: form ? "identity.form.login" : "identity.rest.login",
    feature: form ? "identity.form" : "identity.rest",
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
  }).routes();
  if (form && !form.loginPageValue) {
    const page = new DefaultLoginPage(i.loginPage, async (exchange) => ({
      processingUrl: i.processingUrl,
      usernameParameter: i.internals.usernameParameter,
      passwordParameter: i.internals.passwordParameter,
      csrfMeta: i.csrfEnabled ? await csrfMetaTags(exchange) : "",
      csrfInput: i.csrfEnabled ? await csrfHiddenInput(exchange) : "",
    }));
    routes.push(...page.routes());
  }
  return routes;
}
