import type { HttpExchange } from "../../web/http-exchange.js";

/** Name of the cookie that binds an issued WebAuthn challenge to the browser that asked for it. */
export const WEBAUTHN_CHALLENGE_COOKIE = "PLATFORM_WEBAUTHN";

/**
 * Sets the challenge cookie: HttpOnly, SameSite=Strict, Path=/, Secure on https, Max-Age the challenge
 * lifetime. A browser holds one pending ceremony at a time: new options replace the previous id.
 */
export function setChallengeCookie(exchange: HttpExchange, challengeId: string, ttlMs: number): void {
  exchange.setCookie({
    name: WEBAUTHN_CHALLENGE_COOKIE,
    value: challengeId,
    path: "/",
    httpOnly: true,
    secure: exchange.secure,
    sameSite: "Strict",
    maxAge: Math.max(1, Math.ceil(ttlMs / 1000)),
  });
}

/**
 * Reads the challenge id this browser holds and clears the cookie in the same answer: the store takes
 * the challenge single use, so the id is spent whatever the verification's outcome.
 */
export function takeChallengeCookie(exchange: HttpExchange): string | undefined {
  const id = exchange.cookie(WEBAUTHN_CHALLENGE_COOKIE);
  if (id !== undefined) {
    exchange.setCookie({
      name: WEBAUTHN_CHALLENGE_COOKIE,
      value: "",
      path: "/",
      httpOnly: true,
      secure: exchange.secure,
      sameSite: "Strict",
      maxAge: 0,
    });
  }
  return id;
}
