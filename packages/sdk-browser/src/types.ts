import type {
  AuthenticationAnswerFields,
  AuthenticationCredentialJson,
  MfaConfigBody,
  MfaStatusBody,
  PasskeyLoginUrls,
  FactorType as WireFactorType,
  PublicKeyRequestOptionsJson as WirePublicKeyRequestOptionsJson,
} from "@keyward/core/wire";

/** Where the SDK keeps tokens: in memory only (default), or in the browser's local or session storage. */
export type TokenPersistence = "memory" | "localStorage" | "sessionStorage";

/** A factor type as the server names it (`OTT`, `PASSKEY`; `MFA_OTT`... are accepted too). */
export type FactorType = WireFactorType | (string & {});

/**
 * The URL set of one MFA flow: the body of `GET /api/mfa/config` (the server's {@link MfaConfigBody})
 * with every factor group filled in (from the defaults when the server leaves one out), plus
 * `passkeyLogin`, which the server does not put in that body (the passkey chain is not the flow's; the
 * login page names its URLs). The SDK never hard-codes a flow URL: every request goes to a URL of this set.
 */
export type MfaConfig = Omit<MfaConfigBody, "ott" | "passkey" | "webauthn" | "api" | "flow"> & {
  ott: NonNullable<MfaConfigBody["ott"]>;
  passkey: NonNullable<MfaConfigBody["passkey"]>;
  webauthn: NonNullable<MfaConfigBody["webauthn"]>;
  /** Passkey sign-in as a primary method (the passkey chain; autofill on the login page). */
  passkeyLogin: PasskeyLoginUrls;
  api: Required<MfaConfigBody["api"]>;
  /** Known once the server's config was read. */
  flow?: MfaConfigBody["flow"];
};

/** A partial URL set: injected configs are merged group by group over the defaults. */
export type MfaConfigOverrides = { [G in keyof MfaConfig]?: Partial<MfaConfig[G]> };

/**
 * Every JSON answer of the authentication and MFA endpoints (the server's `AuthenticationAnswer`:
 * MFA required or next step, success, failure, escalation), read before knowing which: every field
 * optional, and anything else the server adds kept.
 */
export type AuthenticationResult = AuthenticationAnswerFields & { [key: string]: unknown };

/** The answer of `selectFactor`. */
export type FactorResult = AuthenticationResult;
/** The answer of `verifyOtt` / `verifyPasskey`: the next step, or the final answer. */
export type VerifyResult = AuthenticationResult;

/** `GET /api/mfa/status` (the server's {@link MfaStatusBody}; a page's own status may omit the ids). */
export type MfaStatus = Omit<MfaStatusBody, "mfaSessionId" | "requiredFactors"> &
  Partial<Pick<MfaStatusBody, "mfaSessionId" | "requiredFactors">> & { [key: string]: unknown };

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
export type PublicKeyRequestOptionsJson = WirePublicKeyRequestOptionsJson;

/** A passkey assertion as JSON (base64url), the body of the passkey verify endpoints. */
export type PublicKeyCredentialJson = AuthenticationCredentialJson;
