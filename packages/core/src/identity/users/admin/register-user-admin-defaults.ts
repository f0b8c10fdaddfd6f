import { Clock } from "../../../kernel/clock.js";
import { IdGenerator } from "../../../kernel/id-generator.js";
import type { PluginContext } from "../../../kernel/plugin.js";
import { InMemoryOneTimeTokenService } from "../../ott/in-memory-one-time-token-service.js";
import { LoginThrottle } from "../../throttle/login-throttle.js";
import { DistributedLock } from "../../../kernel/coordination/distributed-lock.js";
import { AccountUnlockHook } from "./account-unlock-hook.js";
import {
  AdministratorAvailabilityCheck,
  AdministratorGuard,
  AdministratorGuardToken,
} from "./administrator-guard.js";
import { UserRepository } from "../user-repository.js";
import { UserAdministration, userAdministrationServiceOf } from "./user-admin-api.js";
import { PASSWORD_RESET_TOKEN_TTL_MS, PasswordResetTokenService } from "./password-reset-tokens.js";

/**
 * The users admin API's defaults: an in-memory reset-token service (30-minute links, one live link
 * per account), the identity module's unlock hook, which clears the account's login-throttle
 * counters from every address, and the AdministratorGuard over the DistributedLock (availability
 * checks come from later plugins: zero trust, MFA).
 */
export function registerUserAdminDefaults(ctx: PluginContext): void {
  ctx.registerDefault(AdministratorGuardToken, {
    useFactory: (c) => {
      const ids = c.resolve(IdGenerator);
      return new AdministratorGuard({
        users: c.resolve(UserRepository),
        lock: c.resolve(DistributedLock),
        checks: () =>
          c.isRegistered(AdministratorAvailabilityCheck, true)
            ? c.resolveAll(AdministratorAvailabilityCheck)
            : [],
        owner: () => ids.secret(12),
      });
    },
  });
  ctx.registerDefault(UserAdministration, { useFactory: (c) => userAdministrationServiceOf(c) });
  ctx.registerDefault(PasswordResetTokenService, {
    useFactory: (c) =>
      new InMemoryOneTimeTokenService({
        clock: c.resolve(Clock),
        ids: c.resolve(IdGenerator),
        ttlMs: PASSWORD_RESET_TOKEN_TTL_MS,
        maxTokensPerUser: 1,
      }),
  });
  ctx.registerMember(AccountUnlockHook, {
    useFactory: (c) => {
      const throttle = c.resolve(LoginThrottle);
      return { id: "login-throttle", unlock: (account) => throttle.clearAccount(account.username) };
    },
  });
}
