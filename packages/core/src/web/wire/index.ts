// @platform/core/wire: the JSON shapes the server sends and the browser SDK reads, types only. It
// imports nothing, so the SDK's own program (DOM, no Node) compiles it with `import type` and its
// bundle carries none of it. Object types are `type` aliases, not interfaces, so a server's JSON
// writer (`Record<string, unknown>`) takes them as they are.
export type { ErrorBody } from "./error-body.js";
export type {
  AuthenticationAnswer,
  AuthenticationAnswerFields,
  FactorType,
  MfaConfigBody,
  MfaEscalatedAnswer,
  MfaRequiredAnswer,
  MfaStatusBody,
  MfaStepEndpoints,
  PasskeyLoginUrls,
  SignInFailureAnswer,
  SignInSuccessAnswer,
} from "./mfa-messages.js";
export type {
  AuthenticationCredentialJson,
  PasskeyCredentialSummary,
  PasskeyRegisteredAnswer,
  PasskeyRegistrationBody,
  PublicKeyCreationOptionsJson,
  PublicKeyCredentialDescriptorJson,
  PublicKeyRequestOptionsJson,
  RegistrationCredentialJson,
} from "./passkey-messages.js";
export type {
  NewUserBody,
  PolicyJson,
  PolicyRuleJson,
  PolicyTargetJson,
  UserJson,
  ZeroTrustActionBody,
  ZeroTrustActionJson,
  ZeroTrustClearedAnswer,
} from "./admin-messages.js";
export type {
  SecurityDecisionJson,
  SecurityDecisionListAnswer,
  SecurityDecisionSummaryJson,
} from "./decision-messages.js";
export type { OttGenerateAnswer, OttGenerateBody, OttLoginBody } from "./ott-messages.js";
export type {
  TokenPairAnswer,
  TokenRefreshBody,
  TokenRevokeBody,
  TokenRevokedAnswer,
} from "./token-messages.js";
