import { AccountRouteSource } from "../../identity/chain/account-route-source.js";
import { AccountNotices } from "../../identity/notices/account-notices.js";
import { UserRepository } from "../../identity/users/user-repository.js";
import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock } from "../../kernel/clock.js";
import { KeyRing } from "../../kernel/keys/key-ring.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { PlatformPlugin } from "../../kernel/plugin.js";
import { Factor } from "../../mfa/factor-family/factor.js";
import { chainStepUpStarter } from "../../mfa/step-up/fresh-second-factor.js";
import { InMemoryRecoveryCodeStore } from "./in-memory-recovery-code-store.js";
import { RecoveryCodeEndpoints } from "./recovery-code-endpoints.js";
import { recoveryCodeFactor } from "./recovery-code-factor.js";
import { RecoveryCodeHasher } from "./recovery-code-hasher.js";
import { RecoveryCodeStore } from "./recovery-code-store.js";
import {
  RECOVERY_CODE_PROPERTIES,
  RECOVERY_CODE_SATISFIES_NAMED_FACTORS,
  RECOVERY_CODE_STEP_UP_MAX_AGE,
} from "./recovery-codes.properties.js";

/**
 * Recovery codes as a plugin factor: one member of the MFA factor family (`RECOVERY_CODE`), its store
 * (in memory unless a host or adapter registers one), the codes hashed under a key-ring key, and the
 * signed-in user's `POST /api/account/recovery-codes`. Listed after the MFA plugin.
 */
export const recoveryCodesPlugin: PlatformPlugin = {
  id: "mfa-recovery-codes",
  properties: [...RECOVERY_CODE_PROPERTIES],
  register(ctx) {
    if (!ctx.container.isRegistered(Factor, true)) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        "recoveryCodesPlugin needs mfaPlugin listed before it",
      );
    }
    const hasher = new RecoveryCodeHasher();
    ctx.onStart("mfa-recovery-code-key", (c) => hasher.start(c.resolve(KeyRing)));
    ctx.registerDefault(RecoveryCodeStore, { useFactory: () => new InMemoryRecoveryCodeStore() });
    ctx.registerMember(Factor, {
      useFactory: (c) =>
        recoveryCodeFactor({
          store: c.resolve(RecoveryCodeStore),
          hasher,
          users: c.resolve(UserRepository),
          audit: c.resolve(AuditSink),
          notices: c.resolve(AccountNotices),
          satisfiesNamedFactors: ctx.properties.get(RECOVERY_CODE_SATISFIES_NAMED_FACTORS),
        }),
    });
    ctx.registerMember(AccountRouteSource, {
      useFactory: (c) => ({
        id: "mfa-recovery-codes",
        routes: () =>
          new RecoveryCodeEndpoints({
            store: c.resolve(RecoveryCodeStore),
            hasher,
            clock: c.resolve(Clock),
            audit: c.resolve(AuditSink),
            notices: c.resolve(AccountNotices),
            stepUpMaxAgeMs: ctx.properties.get(RECOVERY_CODE_STEP_UP_MAX_AGE),
            startStepUp: chainStepUpStarter(c),
          }).routes(),
      }),
    });
  },
};
