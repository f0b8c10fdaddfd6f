import { fromBase64url, toBase64url } from "./base64url.js";
import type { PublicKeyCredentialJson, PublicKeyRequestOptionsJson } from "./types.js";

/** The browser's request options from the server's JSON assertion options (base64url → bytes). */
export function toRequestOptions(json: PublicKeyRequestOptionsJson): PublicKeyCredentialRequestOptions {
  if (typeof json.challenge !== "string") throw new TypeError("Assertion options carry no challenge");
  const options: PublicKeyCredentialRequestOptions = { challenge: fromBase64url(json.challenge) };
  if (typeof json.rpId === "string") options.rpId = json.rpId;
  if (typeof json.timeout === "number") options.timeout = json.timeout;
  if (json.userVerification !== undefined) options.userVerification = json.userVerification;
  if (json.extensions !== undefined) options.extensions = json.extensions;
  if (Array.isArray(json.allowCredentials)) {
    options.allowCredentials = json.allowCredentials.map((c) => {
      const descriptor: PublicKeyCredentialDescriptor = {
        type: c.type as PublicKeyCredentialType,
        id: fromBase64url(c.id),
      };
      if (Array.isArray(c.transports)) descriptor.transports = c.transports as AuthenticatorTransport[];
      return descriptor;
    });
  }
  return options;
}

/** A credential the browser returned, as the JSON the verify endpoints take (bytes → base64url). */
export function credentialToJson(credential: PublicKeyCredential): PublicKeyCredentialJson {
  const r = credential.response as AuthenticatorAssertionResponse;
  const json: PublicKeyCredentialJson = {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    clientExtensionResults: { ...credential.getClientExtensionResults() } as Record<string, unknown>,
    response: {
      clientDataJSON: toBase64url(r.clientDataJSON),
      authenticatorData: toBase64url(r.authenticatorData),
      signature: toBase64url(r.signature),
    },
  };
  if (r.userHandle) json.response.userHandle = toBase64url(r.userHandle);
  if (credential.authenticatorAttachment) json.authenticatorAttachment = credential.authenticatorAttachment;
  return json;
}

/** True for a browser credential object (bytes), false for credential JSON. */
export function isBrowserCredential(value: unknown): value is PublicKeyCredential {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { rawId?: unknown }).rawId instanceof ArrayBuffer &&
    typeof (value as { getClientExtensionResults?: unknown }).getClientExtensionResults === "function"
  );
}
