import type { Clock } from "../../kernel/clock.js";
import type { Factor } from "../../mfa/factor-family/factor.js";
import { matchedTotpStep, type TotpParameters } from "./totp-codes.js";
import type { TotpEnrolmentStore } from "./totp-enrolment-store.js";
import type { TotpSecretSeal } from "./totp-secret-seal.js";

/** The factor type of an authenticator app. */
export const TOTP_FACTOR_TYPE = "TOTP";

/** What the TOTP member reads. */
export interface TotpFactorOptions {
  store: TotpEnrolmentStore;
  seal: TotpSecretSeal;
  clock: Clock;
  parameters: TotpParameters;
}

/**
 * The authenticator app as a member of the factor family: a code kind, the generic challenge state,
 * verified at `/login/mfa-totp` (under each MFA chain's prefix). Only a confirmed enrolment counts.
 * A right code is spent by claiming its time step in the store (one atomic step), so it is accepted
 * at most once per account and step; a replayed or older code is a wrong answer like any other.
 */
export function totpFactor(o: TotpFactorOptions): Factor {
  return {
    type: TOTP_FACTOR_TYPE,
    kind: "code",
    label: "Authenticator app",
    challengeState: "FACTOR_CHALLENGE",
    proves: "otp",
    lockoutWeight: 1,
    urls: { verify: "/login/mfa-totp", challengePage: "/mfa/challenge/totp" },
    enrolled: async (userId) => (await o.store.find(userId))?.confirmed === true,
    verify: async ({ userId, answer }) => {
      const enrolment = await o.store.find(userId);
      if (!enrolment?.confirmed) return false;
      const secret = o.seal.open(enrolment.sealedSecret, userId);
      if (!secret) return false;
      const step = matchedTotpStep(secret, answer, o.clock.now(), o.parameters);
      return step !== undefined && (await o.store.claimStep(userId, step));
    },
    removeEnrolment: (userId) => o.store.remove(userId),
  };
}
