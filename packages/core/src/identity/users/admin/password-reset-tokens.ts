import type { InjectionToken } from "tsyringe";
import type { OneTimeTokenService } from "../../ott/one-time-token-service.js";

/**
 * The single-use tokens of password-reset links: the OneTimeTokenService port under a token of its
 * own, so a reset token can never sign anyone in through the magic-link chain (and a magic link can
 * never reset a password). The default is an in-memory service with a 30-minute lifetime; a
 * database adapter registers one over its own collection.
 */
export const PasswordResetTokenService: InjectionToken<OneTimeTokenService> = Symbol.for(
  "platform.PasswordResetTokenService",
);

/** How long a reset link works. */
export const PASSWORD_RESET_TOKEN_TTL_MS = 30 * 60_000;
/** Where reset links point (the page that asks for the new password). */
export const PASSWORD_RESET_PATH = "/reset-password";
