import type { SignInMethod, SignInPlan } from "../chain/sign-in-method.js";
import { DEFAULT_URLS } from "../dsl/default-urls.js";
import type { PasskeyLoginOptions } from "../dsl/ott-options.js";
import type { ChainDefinition } from "../dsl/security-registry.js";
import { createPasskeyRoutes } from "./create-passkey-routes.js";

/** `.passkey()`: WebAuthn assertion options, then the signed assertion posted back to sign in. */
export const passkeySignInMethod: SignInMethod = {
  kind: "passkey",
  builtIn: true,
  plan(definition: ChainDefinition): SignInPlan {
    const options = definition.options as PasskeyLoginOptions;
    return {
      loginPage: DEFAULT_URLS.formLoginPage,
      processingUrl: options.loginProcessingUrlValue ?? DEFAULT_URLS.passkeyLoginProcessing,
      redirectsToLoginPage: true,
      routes: (i) =>
        createPasskeyRoutes({
          service: i.deps.passkeyService(options),
          repository: i.repository,
          successHandler: i.successHandler,
          failureHandler: i.failureHandler,
          context: i.context,
          statusCheck: i.deps.statusCheck,
          assertionOptionsEndpoint:
            options.assertionOptionsEndpointValue ?? DEFAULT_URLS.passkeyAssertionOptions,
          loginProcessingUrl: i.processingUrl,
        }),
    };
  },
};
