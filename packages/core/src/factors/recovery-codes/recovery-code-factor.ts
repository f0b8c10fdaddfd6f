import type { UserRepository } from "../../identity/users/user-repository.js";
import type { AccountNotices } from "../../identity/notices/account-notices.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Factor } from "../../mfa/factor-family/factor.js";
import { normalizedRecoveryCode } from "./recovery-code-format.js";
import type { RecoveryCodeHasher } from "./recovery-code-hasher.js";
import type { RecoveryCodeStore } from "./recovery-code-store.js";

/** The factor type of a recovery code. */
export const RECOVERY_CODE_FACTOR_TYPE = "RECOVERY_CODE";

/** What the recovery-code member reads. */
export interface RecoveryCodeFactorOptions {
  store: RecoveryCodeStore;
  hasher: RecoveryCodeHasher;
  users: UserRepository;
  audit: AuditSink;
  notices: AccountNotices;
  /**
   * `platform.auth.mfa.recoveryCode.satisfiesNamedFactors`: false (default) makes the member a
   * stand-in, which never takes the place of a factor a flow requires by name.
   */
  satisfiesNamedFactors: boolean;
}

/**
 * Recovery codes as a member of the factor family: a code kind, the generic challenge state, verified
 * at `/login/mfa-recovery` (under each MFA chain's prefix). Enrolled while one unused code is left. A
 * right code is spent by its keyed hash in one atomic step of the store; a malformed, wrong or spent
 * code is a wrong answer the flow counts toward the lockout. Each use is audited and announced to the
 * user with the count left (never the code).
 */
export function recoveryCodeFactor(o: RecoveryCodeFactorOptions): Factor {
  return {
    type: RECOVERY_CODE_FACTOR_TYPE,
    kind: "code",
    label: "Recovery code",
    challengeState: "FACTOR_CHALLENGE",
    proves: "otp",
    lockoutWeight: 1,
    urls: { verify: "/login/mfa-recovery", challengePage: "/mfa/challenge/recovery" },
    codeEntry: {
      instructions:
        "Enter one of your recovery codes (letters and digits; case and hyphen do not matter). Each works once.",
      inputMode: "text",
    },
    ...(o.satisfiesNamedFactors ? {} : { standIn: true }),
    enrolled: async (userId) => (await o.store.remaining(userId)) > 0,
    remaining: (userId) => o.store.remaining(userId),
    removeEnrolment: (userId) => o.store.remove(userId),
    verify: async ({ userId, answer }) => {
      const code = normalizedRecoveryCode(answer);
      if (code === undefined || !(await o.store.spend(userId, o.hasher.hash(userId, code)))) return false;
      await announceUse(o, userId);
      return true;
    },
  };
}

async function announceUse(o: RecoveryCodeFactorOptions, userId: string): Promise<void> {
  const [left, user] = await Promise.all([o.store.remaining(userId), o.users.findById(userId)]);
  const username = user?.username ?? userId;
  o.audit.record({
    type: "auth.mfa.recovery-code.used",
    principal: username,
    outcome: "success",
    data: { left },
  });
  if (!user) return;
  o.notices.send({
    username: user.username,
    kind: "recovery-code-used",
    text:
      `A recovery code was used to sign in to your account; ${left} of your recovery codes ` +
      `${left === 1 ? "is" : "are"} left. If this was not you, secure your account now.`,
  });
}
