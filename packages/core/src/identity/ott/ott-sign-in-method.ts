import type { ChainRoute } from "../chain/chain-route.js";
import type { SignInFilterInput, SignInMethod, SignInPlan } from "../chain/sign-in-method.js";
import { DEFAULT_URLS } from "../dsl/default-urls.js";
import type { OttLoginOptions } from "../dsl/ott-options.js";
import type { ChainDefinition } from "../dsl/security-registry.js";
import { createOttRoutes } from "./create-ott-routes.js";
import { DeliveringGenerationSuccessHandler } from "./delivering-generation-success-handler.js";
import { magicLinkFor } from "./magic-link.js";
import type { OneTimeToken } from "./one-time-token-service.js";

/** `.ott()`: a one-time token generated for a username, delivered as a link, posted back to sign in. */
export const ottSignInMethod: SignInMethod = {
  kind: "ott",
  builtIn: true,
  plan(definition: ChainDefinition): SignInPlan {
    const options = definition.options as OttLoginOptions;
    return {
      loginPage: options.defaultSubmitPageUrlValue ?? DEFAULT_URLS.ottSubmitPage,
      processingUrl: options.loginProcessingUrlValue ?? DEFAULT_URLS.ottLoginProcessing,
      redirectsToLoginPage: true,
      routes: ottRoutes,
    };
  },
};

function ottRoutes(i: SignInFilterInput): ChainRoute[] {
  const options = i.definition.options as OttLoginOptions;
  const ott = i.deps.ott();
  const submitPageUrl = options.defaultSubmitPageUrlValue ?? DEFAULT_URLS.ottSubmitPage;
  const link = (token: OneTimeToken): string =>
    magicLinkFor({ baseUrl: ott.publicUrl(), submitPageUrl })(token);
  return createOttRoutes({
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
    csrfEnabled: i.csrfEnabled,
  });
}
