// @keyward/core/wire: the JSON shapes the server sends and the browser SDK reads, types only. It
// imports nothing, so the SDK's own program (DOM, no Node) compiles it with `import type` and its
// bundle carries none of it. Object types are `type` aliases, not interfaces, so a server's JSON
// writer (`Record<string, unknown>`) takes them as they are. Only the shapes a client outside the
// core reads or sends are exported; the others stay beside the handlers that write them.
export type {
  AuthenticationAnswerFields,
  FactorType,
  MfaConfigBody,
  MfaStatusBody,
  PasskeyLoginUrls,
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
export type { NewUserBody, UserJson } from "./admin-messages.js";
export type { TokenPairAnswer, TokenRefreshBody } from "./token-messages.js";
