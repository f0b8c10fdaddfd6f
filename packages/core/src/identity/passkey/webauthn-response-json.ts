import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { PlatformError } from "../../kernel/platform-error.js";

/** Longest string accepted anywhere in a WebAuthn response body (64 KB), checked before any parsing. */
export const MAX_WEBAUTHN_FIELD_LENGTH = 65_536;
/** Longest credential id: 1023 bytes (WebAuthn's limit) as unpadded base64url. */
export const MAX_CREDENTIAL_ID_LENGTH = 1_364;
/** Most transports a registration response may list. */
const MAX_TRANSPORTS = 16;
const MAX_DEPTH = 32;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const TRANSPORT = /^[a-z][a-z0-9-]{0,31}$/;

/** True for unpadded base64url text of a whole number of bytes (`""` included). */
export function isBase64Url(value: unknown): value is string {
  return typeof value === "string" && BASE64URL.test(value) && value.length % 4 !== 1;
}

/**
 * Checks a browser's registration response (`PublicKeyCredential.toJSON()` of a `create()` call) and
 * returns a clean copy holding only the fields the verifier reads. Throws VALIDATION_FAILED for a body
 * that is not that shape: a field over 64 KB, a binary field that is not base64url, `id` differing from
 * `rawId`, a `clientDataJSON` that is not a JSON object with type, challenge and origin.
 */
export function parseRegistrationResponseJson(value: unknown): RegistrationResponseJSON {
  const body = credentialEnvelope(value);
  const response = objectField(body.response, "response");
  const transports = response.transports;
  if (
    transports !== undefined &&
    (!Array.isArray(transports) ||
      transports.length > MAX_TRANSPORTS ||
      !transports.every((t) => typeof t === "string" && TRANSPORT.test(t)))
  ) {
    throw invalid("response.transports", "must be a short list of transport names");
  }
  const publicKeyAlgorithm = response.publicKeyAlgorithm;
  if (publicKeyAlgorithm !== undefined && !Number.isSafeInteger(publicKeyAlgorithm)) {
    throw invalid("response.publicKeyAlgorithm", "must be an integer");
  }
  return {
    id: body.id,
    rawId: body.rawId,
    type: "public-key",
    clientExtensionResults: {},
    response: {
      clientDataJSON: clientDataJson(response.clientDataJSON),
      attestationObject: binary(response.attestationObject, "response.attestationObject"),
      ...optionalBinary(response.authenticatorData, "authenticatorData"),
      ...optionalBinary(response.publicKey, "publicKey"),
      ...(publicKeyAlgorithm === undefined ? {} : { publicKeyAlgorithm: publicKeyAlgorithm as number }),
      ...(transports === undefined ? {} : { transports: [...(transports as string[])] }),
    },
  };
}

/**
 * Checks a browser's authentication response (`PublicKeyCredential.toJSON()` of a `get()` call) and
 * returns a clean copy holding only the fields the verifier reads; a null or empty `userHandle` is
 * dropped. Throws VALIDATION_FAILED as parseRegistrationResponseJson does.
 */
export function parseAuthenticationResponseJson(value: unknown): AuthenticationResponseJSON {
  const body = credentialEnvelope(value);
  const response = objectField(body.response, "response");
  const userHandle = response.userHandle;
  if (userHandle !== undefined && userHandle !== null && !isBase64Url(userHandle)) {
    throw invalid("response.userHandle", "must be base64url");
  }
  return {
    id: body.id,
    rawId: body.rawId,
    type: "public-key",
    clientExtensionResults: {},
    response: {
      clientDataJSON: clientDataJson(response.clientDataJSON),
      authenticatorData: binary(response.authenticatorData, "response.authenticatorData"),
      signature: binary(response.signature, "response.signature"),
      ...(typeof userHandle === "string" && userHandle !== "" ? { userHandle } : {}),
    },
  };
}

function credentialEnvelope(value: unknown): { id: string; rawId: string; response: unknown } {
  const body = objectField(value, "body");
  checkSizes(body, "body", MAX_DEPTH);
  const { id, rawId, type } = body;
  if (!isBase64Url(id) || id === "" || id.length > MAX_CREDENTIAL_ID_LENGTH) {
    throw invalid("id", "must be a base64url credential id");
  }
  if (rawId !== id) throw invalid("rawId", "must equal id");
  if (type !== "public-key") throw invalid("type", 'must be "public-key"');
  return { id, rawId, response: body.response };
}

function clientDataJson(value: unknown): string {
  const encoded = binary(value, "response.clientDataJSON");
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"));
  } catch {
    throw invalid("response.clientDataJSON", "must encode a JSON object");
  }
  const data = parsed as Record<string, unknown> | null;
  if (
    typeof data !== "object" ||
    data === null ||
    Array.isArray(data) ||
    typeof data.type !== "string" ||
    typeof data.challenge !== "string" ||
    typeof data.origin !== "string"
  ) {
    throw invalid("response.clientDataJSON", "must hold type, challenge and origin");
  }
  return encoded;
}

function binary(value: unknown, field: string): string {
  if (!isBase64Url(value) || value === "") throw invalid(field, "must be non-empty base64url");
  return value;
}

function optionalBinary<K extends string>(value: unknown, key: K): Partial<Record<K, string>> {
  if (value === undefined || value === null) return {};
  return { [key]: binary(value, `response.${key}`) } as Partial<Record<K, string>>;
}

function objectField(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid(field, "must be a JSON object");
  }
  return value as Record<string, unknown>;
}

/** Every string (keys too) within the length limit, nesting within MAX_DEPTH. */
function checkSizes(value: unknown, path: string, depth: number): void {
  if (typeof value === "string") {
    if (value.length > MAX_WEBAUTHN_FIELD_LENGTH) throw invalid(path, "is longer than 64 KB");
    return;
  }
  if (typeof value !== "object" || value === null) return;
  if (depth === 0) throw invalid(path, "nests too deep");
  for (const [key, child] of Object.entries(value)) {
    if (key.length > MAX_WEBAUTHN_FIELD_LENGTH) throw invalid(path, "has a key longer than 64 KB");
    checkSizes(child, `${path}.${key}`.slice(0, 200), depth - 1);
  }
}

function invalid(field: string, rule: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", `Malformed WebAuthn response: ${field} ${rule}`, {
    details: { field },
  });
}
