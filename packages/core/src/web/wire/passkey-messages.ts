// What the passkey endpoints and the browser exchange: WebAuthn options and credentials as JSON
// (binary fields base64url, no padding) and the management answers. Plain strings where the DOM
// has unions (transports, attachment), so the server's and the browser's programs both compile it.

/** A credential named in options (`allowCredentials`, `excludeCredentials`). */
export type PublicKeyCredentialDescriptorJson = {
  /** base64url credential id. */
  id: string;
  /** `"public-key"`. */
  type: string;
  transports?: string[];
};

/** Assertion options as the server sends them (`navigator.credentials.get`'s `publicKey`, as JSON). */
export type PublicKeyRequestOptionsJson = {
  /** base64url. */
  challenge: string;
  rpId?: string;
  timeout?: number;
  userVerification?: "required" | "preferred" | "discouraged";
  allowCredentials?: PublicKeyCredentialDescriptorJson[];
  extensions?: object;
  /** The MFA passkey factor's options name the flow they are bound to. */
  mfaSessionId?: string;
};

/** Creation options as the server sends them (`navigator.credentials.create`'s `publicKey`, as JSON). */
export type PublicKeyCreationOptionsJson = {
  /** base64url. */
  challenge: string;
  rp: { id?: string; name: string };
  /** `id` is base64url. */
  user: { id: string; name: string; displayName: string };
  pubKeyCredParams: { alg: number; type: string }[];
  timeout?: number;
  excludeCredentials?: PublicKeyCredentialDescriptorJson[];
  authenticatorSelection?: object;
  attestation?: string;
  extensions?: object;
};

/** What every credential JSON carries beside its response. */
type CredentialJsonEnvelope = {
  id: string;
  /** base64url; equals `id`. */
  rawId: string;
  type: string;
  authenticatorAttachment?: string | undefined;
  clientExtensionResults: Record<string, unknown>;
};

/** A passkey assertion as JSON: the body of the passkey sign-in and MFA passkey verify endpoints. */
export type AuthenticationCredentialJson = CredentialJsonEnvelope & {
  response: {
    clientDataJSON: string;
    authenticatorData: string;
    signature: string;
    userHandle?: string;
  };
};

/** A new passkey as JSON (`create()`'s credential). */
export type RegistrationCredentialJson = CredentialJsonEnvelope & {
  response: {
    clientDataJSON: string;
    attestationObject: string;
    transports?: string[];
  };
};

/** `POST /webauthn/register`: the new credential and an optional label. */
export type PasskeyRegistrationBody = {
  response: RegistrationCredentialJson;
  label?: string;
};

/** `201` of `POST /webauthn/register`. */
export type PasskeyRegisteredAnswer = {
  id: string;
  label: string;
  /** ISO-8601. */
  createdAt: string;
};

/** One passkey of `GET /webauthn/credentials` (never the key or the counter). */
export type PasskeyCredentialSummary = {
  id: string;
  label: string;
  /** ISO-8601. */
  createdAt: string;
  /** ISO-8601, or null when never used to sign in. */
  lastUsedAt: string | null;
  backedUp: boolean;
  deviceType: "singleDevice" | "multiDevice";
  transports: string[];
};
