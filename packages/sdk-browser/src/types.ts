/** Where the SDK keeps tokens: in memory only (default), or in the browser's local or session storage. */
export type TokenPersistence = "memory" | "localStorage" | "sessionStorage";

/** A factor type as the server names it (`OTT`, `PASSKEY`; `MFA_OTT`... are accepted too). */
export type FactorType = "OTT" | "PASSKEY" | (string & {});

/**
 * The URL set of one MFA flow, the body of `GET /api/mfa/config`, grouped by step kind. The SDK
 * never hard-codes a flow URL: every request goes to a URL of this set.
 */
export interface MfaConfig {
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
  /** Passkey sign-in as a primary method (the passkey chain; autofill on the login page). */
  passkeyLogin: { assertionOptions: string; loginProcessing: string };
  api: {
    selectFactor: string;
    cancel: string;
    status: string;
    requestOttCode: string;
    config: string;
    logout: string;
  };
  urlPrefix?: string;
  flow?: { typeName: string; factors: FactorType[]; requiredFactors: number };
}

/** A partial URL set: injected configs are merged group by group over the defaults. */
export type MfaConfigOverrides = { [G in keyof MfaConfig]?: Partial<MfaConfig[G]> };

/**
 * Every JSON answer of the authentication and MFA endpoints, in one open shape:
 * - MFA required / next step: `{ mfaRequired: true, selectFactorUrl, mfaSessionId, status, state,
 *   nextStepUrl, currentFactor, availableFactors, progress }`;
 * - success: `{ success: true, redirectUrl }`, plus `accessToken, refreshToken, tokenType, expiresIn,
 *   refreshExpiresIn` on `.oauth2()` flows;
 * - failure: `{ success: false, error, failureType, code, attemptsMade?, maxAttempts? }`;
 * - escalation: `{ escalated: true, status: "PENDING", statusUrl, retryAfterSeconds }`.
 */
export interface AuthenticationResult {
  success?: boolean;
  redirectUrl?: string;
  mfaRequired?: boolean;
  selectFactorUrl?: string;
  mfaSessionId?: string;
  status?: string;
  state?: string;
  nextStepUrl?: string;
  currentFactor?: FactorType | null;
  availableFactors?: FactorType[];
  progress?: { current: number; total: number };
  accessToken?: string;
  refreshToken?: string;
  tokenType?: string;
  expiresIn?: number;
  refreshExpiresIn?: number;
  error?: string;
  failureType?: string;
  code?: string;
  attemptsMade?: number;
  maxAttempts?: number;
  escalated?: boolean;
  statusUrl?: string;
  retryAfterSeconds?: number;
  [key: string]: unknown;
}

/** The answer of `selectFactor`. */
export type FactorResult = AuthenticationResult;
/** The answer of `verifyOtt` / `verifyPasskey`: the next step, or the final answer. */
export type VerifyResult = AuthenticationResult;

/** `GET /api/mfa/status`. */
export interface MfaStatus {
  mfaSessionId?: string;
  state: string;
  currentFactor?: FactorType | null;
  satisfied: FactorType[];
  missing: number;
  allowed: FactorType[];
  requiredFactors?: number;
  attemptsMade: number;
  maxAttempts: number;
  nextStepUrl: string;
  [key: string]: unknown;
}

/** What the SDK knows about the MFA flow in progress (memory only). */
export interface MfaClientState {
  mfaSessionId: string | undefined;
  mfaStepId: string | undefined;
  username: string | undefined;
  state: string | undefined;
  currentFactor: FactorType | undefined;
  availableFactors: FactorType[];
  nextStepUrl: string | undefined;
}

/** Assertion options as the server sends them (JSON, base64url fields). */
export interface PublicKeyRequestOptionsJson {
  challenge: string;
  rpId?: string;
  timeout?: number;
  userVerification?: UserVerificationRequirement;
  allowCredentials?: { id: string; type: PublicKeyCredentialType; transports?: AuthenticatorTransport[] }[];
  extensions?: AuthenticationExtensionsClientInputs;
  mfaSessionId?: string;
  [key: string]: unknown;
}

/** A passkey assertion as JSON (base64url), the body of the passkey verify endpoints. */
export interface PublicKeyCredentialJson {
  id: string;
  rawId: string;
  type: string;
  authenticatorAttachment?: string;
  clientExtensionResults: Record<string, unknown>;
  response: {
    clientDataJSON: string;
    authenticatorData: string;
    signature: string;
    userHandle?: string;
  };
}
