import type { MfaConfigBody } from "../../web/wire/mfa-messages.js";
import type { FactorType } from "../factor-type.js";
import type { MfaUrls } from "./mfa-urls.js";
import { BUILT_IN_FACTORS } from "../factor-family/built-in-factors.js";
import type { FactorDescription } from "../factor-family/factor.js";

/** What `/api/mfa/config` says about the flow itself, beside its URLs. */
export interface MfaFlowDescription {
  /** `mfa`, `mfa_2`, `mfa_<name>`. */
  typeName: string;
  /** The flow's secondary factors in step order. */
  factors: readonly FactorType[];
  /** How many distinct factors must complete. */
  requiredFactors: number;
  /** The family's description of each factor (which one sends codes, which is a passkey). Default the built-in two. */
  members?: readonly FactorDescription[];
}

/** The body of `GET /api/mfa/config` (the wire shape the browser SDK reads). */
export type MfaConfigJson = MfaConfigBody;

/**
 * Builds the `/api/mfa/config` body, grouped as `primary`, `mfa`, `ott`, `passkey`,
 * `webauthn`, `api`, optional `urlPrefix`) so the SDK and custom pages never hard-code a URL. Every URL
 * it names is one the flow's chain (or, for passkey registration and the success URL, the application)
 * answers: a flow has one primary processing URL, so `formLoginProcessing` and `restLoginProcessing`
 * both name it (a form primary also takes JSON there; a REST primary takes only JSON), and the groups
 * of a factor the flow does not have are left out.
 */
export function mfaConfigJson(urls: MfaUrls, flow: MfaFlowDescription): MfaConfigJson {
  const members = flow.members ?? BUILT_IN_FACTORS;
  const has = (state: string) =>
    flow.factors.some((t) => members.find((m) => m.type === t)?.challengeState === state);
  const hasOtt = has("OTT_CHALLENGE");
  const hasPasskey = has("PASSKEY_CHALLENGE");
  const body: MfaConfigJson = {
    primary: {
      formLoginPage: urls.formLoginPage,
      formLoginProcessing: urls.primaryLoginProcessing,
      restLoginProcessing: urls.primaryLoginProcessing,
      loginFailure: urls.loginFailure,
      loginSuccess: urls.successUrl,
    },
    mfa: {
      selectFactor: urls.selectFactorPage,
      success: urls.successUrl,
      failure: urls.failurePage,
      cancel: urls.cancel,
    },
    api: {
      selectFactor: urls.selectFactor,
      cancel: urls.cancel,
      status: urls.status,
      ...(hasOtt ? { requestOttCode: urls.ottGenerateCode } : {}),
      config: urls.config,
      logout: urls.logout,
    },
    flow: { typeName: flow.typeName, factors: [...flow.factors], requiredFactors: flow.requiredFactors },
  };
  if (hasOtt) {
    body.ott = {
      requestCodeUi: urls.ottRequestCodePage,
      challengeUi: urls.ottChallengePage,
      loginProcessing: urls.ottLoginProcessing,
      codeGeneration: urls.ottGenerateCode,
    };
  }
  if (hasPasskey) {
    body.passkey = {
      challengeUi: urls.passkeyChallengePage,
      loginProcessing: urls.passkeyLoginProcessing,
      registrationProcessing: urls.passkeyRegistrationProcessing,
    };
    body.webauthn = {
      assertionOptions: urls.passkeyAssertionOptions,
      assertionVerify: urls.passkeyLoginProcessing,
    };
  }
  if (urls.urlPrefix !== undefined) body.urlPrefix = urls.urlPrefix;
  return body;
}
