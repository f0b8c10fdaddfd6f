import { expect } from "vitest";
import {
  type AssertionTweaks,
  type CeremonyTweaks,
  SoftwareAuthenticator,
} from "../../packages/core/src/identity/passkey/software-authenticator.test-support.js";
import type { Browser, IdentityTestServer } from "./identity-test-server.js";

export { SoftwareAuthenticator };

/** The creation options a SoftwareAuthenticator takes (PublicKeyCredentialCreationOptionsJSON). */
export type CreationOptions = Parameters<SoftwareAuthenticator["createCredential"]>[0];
/** The request options a SoftwareAuthenticator takes (PublicKeyCredentialRequestOptionsJSON). */
export type RequestOptions = Parameters<SoftwareAuthenticator["getAssertion"]>[0];

/** `http://localhost:<port>`: the passkey chains' fallback allowed origin (WebAuthn refuses an IP). */
export function localOrigin(s: IdentityTestServer): string {
  return `http://localhost:${new URL(s.url).port}`;
}

/** The session's CSRF token, from the test server's `GET /csrf` route. */
export async function csrfOf(b: Browser): Promise<string> {
  const { token } = (await (await b.fetch("/csrf")).json()) as { token: string | null };
  if (!token) throw new Error("GET /csrf answered no token (is /csrf on a session chain?)");
  return token;
}

/** Signs in through the form chain's built-in `/login` page; returns the rotated CSRF token. */
export async function signInWithPassword(b: Browser, username: string, password: string): Promise<string> {
  const csrf = await b.csrfFrom("/login");
  const res = await b.postForm("/login", { username, password, _csrf: csrf });
  expect(res.status).toBe(302);
  return csrfOf(b);
}

/** JSON request headers, with the CSRF token when given. */
export function jsonHeaders(csrf?: string): Record<string, string> {
  return csrf === undefined
    ? { accept: "application/json" }
    : { accept: "application/json", "x-csrf-token": csrf };
}

/** Asks registration options and posts the device's attestation; returns the register answer. */
export async function registerPasskey(
  b: Browser,
  device: SoftwareAuthenticator,
  headers: Record<string, string>,
  options: { label?: string; tweaks?: CeremonyTweaks } = {},
): Promise<Response> {
  const res = await b.postJson("/webauthn/register/options", {}, headers);
  expect(res.status).toBe(200);
  const response = device.createCredential((await res.json()) as CreationOptions, options.tweaks);
  return b.postJson("/webauthn/register", { response, label: options.label }, headers);
}

/** Asks assertion options (at `url`) and has the device sign them. */
export async function assertion(
  b: Browser,
  device: SoftwareAuthenticator,
  headers: Record<string, string>,
  options: { url?: string; username?: string; tweaks?: AssertionTweaks } = {},
): Promise<ReturnType<SoftwareAuthenticator["getAssertion"]>> {
  const body = options.username === undefined ? {} : { username: options.username };
  const res = await b.postJson(options.url ?? "/webauthn/authenticate/options", body, headers);
  expect(res.status).toBe(200);
  return device.getAssertion((await res.json()) as RequestOptions, options.tweaks);
}

/** The caller's passkeys (`GET /webauthn/credentials`). */
export async function credentialsOf(b: Browser, headers: Record<string, string> = jsonHeaders()) {
  const res = await b.fetch("/webauthn/credentials", { headers });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; label: string }[];
}
