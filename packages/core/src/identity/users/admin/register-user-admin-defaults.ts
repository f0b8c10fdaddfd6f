import { Clock } from "../../../kernel/clock.js";
import { IdGenerator } from "../../../kernel/id-generator.js";
import type { PluginContext } from "../../../kernel/plugin.js";
import { InMemoryOneTimeTokenService } from "../../ott/in-memory-one-time-token-service.js";
import { LoginThrottle } from "../../throttle/login-throttle.js";
import { AccountUnlockHook } from "./account-unlock-hook.js";
import { PASSWORD_RESET_TOKEN_TTL_MS, PasswordResetTokenService } from "./password-reset-tokens.js";

/**
 * The users admin API's defaults: an in-memory reset-token service (30-minute links, one live link
 * per account) and the identity module's unlock hook, which clears the account's login-throttle
 * counters from every address.
 */
export function registerUserAdminDefaults(ctx: PluginContext): void {
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
