import { Clock } from "../../../kernel/clock.js";
import { ChangeCounters } from "../../../kernel/coordination/change-counters.js";
import { ChangePollerToken } from "../../../kernel/coordination/change-poller.js";
import type { PluginContext } from "../../../kernel/plugin.js";
import { PlatformError } from "../../../kernel/platform-error.js";
import { SubjectStatusCheck } from "../../authentication/subject-status-check.js";
import { UserRepository } from "../user-repository.js";
import { ACCOUNT_STANDING_TOPIC, AccountStanding } from "./account-standing.js";
import { CachedAccountStanding } from "./cached-account-standing.js";

/**
 * The account-standing default (a cache over the UserRepository that every instance drops when the
 * `identity.account-standing` counter moves) and its `token-refresh` checkpoint: a refresh token of a
 * sign-in that no longer stands is refused like a revoked one (401 INVALID_TOKEN). Requests are
 * checked by the security-context filter itself.
 */
export function registerStandingDefaults(ctx: PluginContext): void {
  ctx.registerDefault(AccountStanding, {
    useFactory: (c) => {
      const standing = new CachedAccountStanding({
        users: c.resolve(UserRepository),
        counters: c.resolve(ChangeCounters),
        clock: c.resolve(Clock),
      });
      c.resolve(ChangePollerToken).watch(ACCOUNT_STANDING_TOPIC, () => standing.forgetAll());
      return standing;
    },
  });
  ctx.registerMember(SubjectStatusCheck, {
    useFactory: (c) => {
      const standing = c.resolve(AccountStanding);
      return {
        id: "account-standing",
        checkpoints: ["token-refresh"] as const,
        async check(query) {
          if (query.checkpoint !== "token-refresh") return;
          if (await standing.holds(query.authentication)) return;
          throw new PlatformError("INVALID_TOKEN", "Invalid refresh token");
        },
      };
    },
  });
}
