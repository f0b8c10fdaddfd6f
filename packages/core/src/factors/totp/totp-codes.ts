import { Secret, TOTP } from "otpauth";

/** RFC 6238 parameters of an account's authenticator app (SHA-1, the only one apps agree on). */
export interface TotpParameters {
  /** Digits of a code (6 by default). */
  readonly digits: number;
  /** Seconds of one step (30 by default). */
  readonly periodSeconds: number;
}

/** Steps of clock drift accepted each way (one: the previous, current and next code verify). */
export const TOTP_DRIFT_STEPS = 1;

/** Bytes of a new TOTP secret (160 bits, RFC 4226's recommendation for HMAC-SHA-1). */
export const TOTP_SECRET_BYTES = 20;

/** `presented` as a code of `digits` digits (spaces dropped), else undefined: a malformed answer. */
export function wellFormedTotpCode(presented: unknown, digits: number): string | undefined {
  if (typeof presented !== "string" || presented.length > 64) return undefined;
  const token = presented.replace(/\s/g, "");
  return token.length === digits && /^[0-9]+$/.test(token) ? token : undefined;
}

/**
 * The time step a code belongs to, if it is a code of `secret` within one step of `now` either way;
 * undefined otherwise (including anything that is not exactly `digits` decimal digits). The step,
 * not the code, is what a replay check remembers: one code per account and step.
 */
export function matchedTotpStep(
  secret: Uint8Array,
  presented: unknown,
  now: number,
  p: TotpParameters,
): number | undefined {
  const token = wellFormedTotpCode(presented, p.digits);
  if (token === undefined) return undefined;
  const totp = totpOf(secret, p);
  const delta = totp.validate({ token, timestamp: now, window: TOTP_DRIFT_STEPS });
  return delta === null ? undefined : totp.counter({ timestamp: now }) + delta;
}

/** The code of `secret` at `now` (tests and the enrolment check compute codes with it). */
export function totpCodeAt(secret: Uint8Array, now: number, p: TotpParameters): string {
  return totpOf(secret, p).generate({ timestamp: now });
}

/** The base32 form apps take when the QR code cannot be scanned. */
export function base32Of(secret: Uint8Array): string {
  return new Secret({ buffer: copyOf(secret) }).base32;
}

/** The `otpauth://totp/...` URI of an enrolment (issuer and account name as the app shows them). */
export function otpauthUri(secret: Uint8Array, issuer: string, account: string, p: TotpParameters): string {
  return new TOTP({ ...totpFields(secret, p), issuer, label: account }).toString();
}

function totpOf(secret: Uint8Array, p: TotpParameters): TOTP {
  return new TOTP(totpFields(secret, p));
}

function totpFields(secret: Uint8Array, p: TotpParameters) {
  return {
    secret: new Secret({ buffer: copyOf(secret) }),
    algorithm: "SHA1",
    digits: p.digits,
    period: p.periodSeconds,
  };
}

function copyOf(bytes: Uint8Array): ArrayBuffer {
  return bytes.slice().buffer as ArrayBuffer;
}
