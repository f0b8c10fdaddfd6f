import type { FactorType } from "../factor-type.js";
import type { MfaUrls } from "./mfa-urls.js";

/** What `/api/mfa/config` says about the flow itself, beside its URLs. */
export interface MfaFlowDescription {
  /** `mfa`, `mfa_2`, `mfa_<name>`. */
  typeName: string;
  /** The flow's secondary factors in step order. */
  factors: readonly FactorType[];
  /** How many distinct factors must complete. */
  requiredFactors: number;
}

/** The body of `GET /api/mfa/config`: the original's URL groups plus the flow description. */
export interface MfaConfigJson {
  primary: {
    formLoginPage: string;
    formLoginProcessing: string;
    restLoginProcessing: string;
    loginFailure: string;
    loginSuccess: string;
  };
  mfa: { selectFactor: string; success: string; failure: string; cancel: string };
  ott: { requestCodeUi: string; challengeUi: string; loginProcessing: string; codeGeneration: string };
  passkey: { challengeUi: string; loginProcessing: string; registrationProcessing: string };
  webauthn: { assertionOptions: string; assertionVerify: string };
  api: {
    selectFactor: string;
    cancel: string;
    status: string;
    requestOttCode: string;
    config: string;
    logout: string;
  };
  urlPrefix?: string;
  flow: { typeName: string; factors: FactorType[]; requiredFactors: number };
}

/**
 * Builds the `/api/mfa/config` body in the original's shape (`primary`, `mfa`, `ott`, `passkey`,
 * `webauthn`, `api`, optional `urlPrefix`) so the SDK and custom pages never hard-code a URL.
 */
export function mfaConfigJson(urls: MfaUrls, flow: MfaFlowDescription): MfaConfigJson {
  const body: MfaConfigJson = {
    primary: {
      formLoginPage: urls.formLoginPage,
      formLoginProcessing: urls.formLoginProcessing,
      restLoginProcessing: urls.restLoginProcessing,
      loginFailure: urls.loginFailure,
      loginSuccess: urls.successUrl,
    },
    mfa: {
      selectFactor: urls.selectFactorPage,
      success: urls.successUrl,
      failure: urls.failurePage,
      cancel: urls.cancel,
    },
    ott: {
      requestCodeUi: urls.ottRequestCodePage,
      challengeUi: urls.ottChallengePage,
      loginProcessing: urls.ottLoginProcessing,
      codeGeneration: urls.ottGenerateCode,
    },
    passkey: {
      challengeUi: urls.passkeyChallengePage,
      loginProcessing: urls.passkeyLoginProcessing,
      registrationProcessing: urls.passkeyRegistrationProcessing,
    },
    webauthn: {
      assertionOptions: urls.passkeyAssertionOptions,
      assertionVerify: urls.passkeyLoginProcessing,
    },
    api: {
      selectFactor: urls.selectFactor,
      cancel: urls.cancel,
      status: urls.status,
      requestOttCode: urls.ottGenerateCode,
      config: urls.config,
      logout: urls.logout,
    },
    flow: { typeName: flow.typeName, factors: [...flow.factors], requiredFactors: flow.requiredFactors },
  };
  if (urls.urlPrefix !== undefined) body.urlPrefix = urls.urlPrefix;
  return body;
}
