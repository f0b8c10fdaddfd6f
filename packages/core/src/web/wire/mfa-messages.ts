// What the sign-in and MFA endpoints answer and what the browser SDK reads: the flow's URL set
// (`GET /api/mfa/config`), the step, escalation, success and failure answers, and the flow status.

/**
 * A secondary factor as the server names it: `OTT` and `PASSKEY` are built in, a plugin adds others
 * (`TOTP`, ...). Open on purpose: a client reads the types a flow offers from `availableFactors`.
 */
export type FactorType = string;

/**
 * The body of `GET /api/mfa/config`: the flow's URL groups plus its description. The factor groups
 * (`ott`, `passkey`, `webauthn`, `api.requestOttCode`) are present only when the flow has that factor.
 */
export type MfaConfigBody = {
  primary: {
    formLoginPage: string;
    formLoginProcessing: string;
    restLoginProcessing: string;
    loginFailure: string;
    loginSuccess: string;
  };
  mfa: { selectFactor: string; success: string; failure: string; cancel: string };
  /** Only when the flow has the OTT factor. */
  ott?: { requestCodeUi: string; challengeUi: string; loginProcessing: string; codeGeneration: string };
  /** Only when the flow has the passkey factor. */
  passkey?: { challengeUi: string; loginProcessing: string; registrationProcessing: string };
  /** Only when the flow has the passkey factor. */
  webauthn?: { assertionOptions: string; assertionVerify: string };
  api: {
    selectFactor: string;
    cancel: string;
    status: string;
    /** Only when the flow has the OTT factor. */
    requestOttCode?: string;
    config: string;
    logout: string;
  };
  urlPrefix?: string;
  flow: { typeName: string; factors: FactorType[]; requiredFactors: number };
};

/**
 * Passkey sign-in as a primary method (the passkey chain, not an MFA factor). Not part of
 * `/api/mfa/config` (the passkey chain is not the flow's): the MFA login page names these URLs in
 * `data-passkey-options-url` and `data-passkey-login-url`.
 */
export type PasskeyLoginUrls = {
  assertionOptions: string;
  loginProcessing: string;
};

/** The JSON endpoints of a flow's MFA steps; a factor's endpoints appear only when the flow has it. */
export type MfaStepEndpoints = {
  /** GET: the caller's flow state. */
  status: string;
  /** POST `{ factorType }`. */
  selectFactor: string;
  /** POST: ends the flow. */
  cancel: string;
  /** POST `{ token }`: verifies a mailed code (OTT factor). */
  verifyOtt?: string;
  /** POST: sends a new code (OTT factor). */
  generateCode?: string;
  /** POST: assertion options bound to the flow (passkey factor). */
  passkeyOptions?: string;
  /** POST: the assertion (passkey factor). */
  verifyPasskey?: string;
  /**
   * A plugin factor's (e.g. `TOTP`) kind and `POST { token }` answer URL, by type; present only when
   * the flow has such a factor. The SDK asks for a code or a passkey by `kind`, not by the name.
   */
  factors?: Record<FactorType, { kind: "code" | "passkey"; verify: string }>;
};

/** "MFA required" (first answer) or the next step of a flow. */
export type MfaRequiredAnswer = {
  mfaRequired: true;
  selectFactorUrl: string;
  mfaSessionId: string;
  status: "MFA_REQUIRED" | "MFA_CONTINUE";
  state: string;
  nextStepUrl: string;
  currentFactor: FactorType | null;
  availableFactors: FactorType[];
  progress: { current: number; total: number };
  endpoints: MfaStepEndpoints;
  /** A token flow's first answer: the binding a client without cookies sends as `X-MFA-Binding`. */
  mfaBinding?: string;
};

/** 202: an escalated sign-in waits for an administrator; the client polls `statusUrl`. */
export type MfaEscalatedAnswer = {
  escalated: true;
  status: "PENDING";
  statusUrl: string;
  retryAfterSeconds: number;
  message: string;
  mfaBinding?: string;
};

/** A finished sign-in; the token fields only on `.oauth2()` chains and flows. */
export type SignInSuccessAnswer = {
  success: true;
  redirectUrl: string;
  accessToken?: string;
  refreshToken?: string;
  tokenType?: string;
  expiresIn?: number;
  refreshExpiresIn?: number;
  /** A session step-up rotated the CSRF token: the new one. */
  csrfToken?: string;
  stepUp?: boolean;
};

/** A refused sign-in step. */
export type SignInFailureAnswer = {
  success: false;
  error: string;
  failureType: string;
  code: string;
  attemptsMade?: number;
  maxAttempts?: number;
};

/** Every answer a sign-in or MFA step may give. */
export type AuthenticationAnswer =
  | SignInSuccessAnswer
  | SignInFailureAnswer
  | MfaRequiredAnswer
  | MfaEscalatedAnswer;

/** An {@link AuthenticationAnswer} as a client reads it before it knows which one: every field optional. */
export type AuthenticationAnswerFields = Partial<Omit<SignInSuccessAnswer, "success">> &
  Partial<Omit<SignInFailureAnswer, "success">> &
  Partial<Omit<MfaRequiredAnswer, "status" | "mfaRequired">> &
  Partial<Omit<MfaEscalatedAnswer, "status" | "escalated">> & {
    success?: boolean;
    mfaRequired?: boolean;
    escalated?: boolean;
    status?: string;
  };

/** `GET /api/mfa/status`: the caller's flow. */
export type MfaStatusBody = {
  mfaSessionId: string;
  state: string;
  currentFactor: FactorType | null;
  satisfied: FactorType[];
  missing: number;
  allowed: FactorType[];
  requiredFactors: number;
  attemptsMade: number;
  maxAttempts: number;
  nextStepUrl: string;
};
