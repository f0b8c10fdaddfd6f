// The passkey page's conversions between the server's WebAuthn JSON (base64url) and the browser's
// credential objects (ArrayBuffers): creation and request options in, registration and assertion out.
import type {
  AuthenticationCredentialJson,
  PublicKeyCreationOptionsJson,
  PublicKeyCredentialDescriptorJson,
  PublicKeyRequestOptionsJson,
  RegistrationCredentialJson,
} from "@keyward/core/wire";
import { fromBase64url, toBase64url } from "../base64url.js";

/** A failed request of the page: the server's message, with its status and platform code. */
export type PasskeyRequestError = Error & { status?: number; code?: string | undefined };

function descriptors(list: PublicKeyCredentialDescriptorJson[] | undefined): PublicKeyCredentialDescriptor[] {
  return (list || []).map((c) => {
    const d: PublicKeyCredentialDescriptor = { type: "public-key", id: fromBase64url(c.id) };
    if (c.transports) d.transports = c.transports as AuthenticatorTransport[];
    return d;
  });
}

/** `navigator.credentials.create`'s options from the server's JSON (every other field kept as sent). */
export function creationOptions(json: PublicKeyCreationOptionsJson): PublicKeyCredentialCreationOptions {
  return {
    ...(json as unknown as PublicKeyCredentialCreationOptions),
    challenge: fromBase64url(json.challenge),
    user: { ...json.user, id: fromBase64url(json.user.id) },
    excludeCredentials: descriptors(json.excludeCredentials),
  };
}

/** `navigator.credentials.get`'s options from the server's JSON; an empty `allowCredentials` is left out. */
export function requestOptions(json: PublicKeyRequestOptionsJson): PublicKeyCredentialRequestOptions {
  const o = {
    ...(json as unknown as PublicKeyCredentialRequestOptions),
    challenge: fromBase64url(json.challenge),
  };
  if (json.allowCredentials?.length) o.allowCredentials = descriptors(json.allowCredentials);
  else delete o.allowCredentials;
  return o;
}

function extensionResults(credential: PublicKeyCredential): Record<string, unknown> {
  return typeof credential.getClientExtensionResults === "function"
    ? ({ ...credential.getClientExtensionResults() } as Record<string, unknown>)
    : {};
}

/** A new passkey as the JSON `POST /webauthn/register` takes. */
export function registrationJson(credential: PublicKeyCredential): RegistrationCredentialJson {
  const r = credential.response as AuthenticatorAttestationResponse;
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment || undefined,
    clientExtensionResults: extensionResults(credential),
    response: {
      clientDataJSON: toBase64url(r.clientDataJSON),
      attestationObject: toBase64url(r.attestationObject),
      transports: typeof r.getTransports === "function" ? r.getTransports() : [],
    },
  };
}

/** An assertion as the JSON the passkey sign-in endpoint takes. */
export function assertionJson(credential: PublicKeyCredential): AuthenticationCredentialJson {
  const r = credential.response as AuthenticatorAssertionResponse;
  const out: AuthenticationCredentialJson = {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment || undefined,
    clientExtensionResults: extensionResults(credential),
    response: {
      clientDataJSON: toBase64url(r.clientDataJSON),
      authenticatorData: toBase64url(r.authenticatorData),
      signature: toBase64url(r.signature),
    },
  };
  if (r.userHandle?.byteLength) out.response.userHandle = toBase64url(r.userHandle);
  return out;
}
