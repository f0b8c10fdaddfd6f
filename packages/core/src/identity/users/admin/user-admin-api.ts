import { PlatformProperties } from "../../../kernel/properties.js";
import { ServerAddress } from "../../../kernel/server-address.js";
import { TokenService } from "../../tokens/token-service.js";
import type { DependencyContainer } from "tsyringe";
import { AuditSink } from "../../../kernel/audit-sink.js";
import { Clock } from "../../../kernel/clock.js";
import { PlatformError } from "../../../kernel/platform-error.js";
import type { HttpExchange } from "../../../web/http-exchange.js";
import type { ContainerAware } from "../../chain/container-aware.js";
import type { NextFilter, SecurityFilter } from "../../chain/security-filter.js";
import { OneTimeTokenDelivery } from "../../ott/one-time-token-delivery.js";
import { PasswordHasher } from "../../password/password-hasher.js";
import { publicUrlOf } from "../../public-url.properties.js";
import { UserRepository } from "../user-repository.js";
import { AccountUnlockHook } from "./account-unlock-hook.js";
import { PASSWORD_RESET_PATH, PasswordResetTokenService } from "./password-reset-tokens.js";
import { PasswordResetFilter } from "./password-reset-filter.js";
import { UserAdminFilter } from "./user-admin-filter.js";
import { UserAdministrationService } from "./user-administration-service.js";

/**
 * The users admin API and the password-reset page as one chain filter, for
 * `http.addFilterAfter(userAdminApi(), "authorization")` on a chain whose matcher covers
 * `/admin/api/users/**` and `/reset-password`: the API checks ROLE_ADMIN itself (whatever the
 * chain's rules say); the reset page is for anyone holding a link. Attached to the platform's
 * services at start; CSRF is the chain's (session callers).
 */
export function userAdminApi(): SecurityFilter & ContainerAware {
  let filters: SecurityFilter[] | undefined;
  return {
    name: "user-admin-api",
    attach(container: DependencyContainer): void {
      const users = container.resolve(UserRepository);
      const hasher = container.resolve(PasswordHasher);
      const audit = container.resolve(AuditSink);
      const tokens = container.resolve(TokenService);
      const signOutEverywhere = (userId: string) => tokens.revokeAllForUser(userId);
      const resetTokens = container.resolve(PasswordResetTokenService);
      const publicUrl = publicUrlOf(container.resolve(PlatformProperties), container.resolve(ServerAddress));
      const service = new UserAdministrationService({
        users,
        hasher,
        audit,
        signOutEverywhere,
        resetTokens,
        delivery: container.resolve(OneTimeTokenDelivery),
        unlockHooks: () =>
          container.isRegistered(AccountUnlockHook, true) ? container.resolveAll(AccountUnlockHook) : [],
        resetLink: (token) =>
          `${publicUrl().replace(/\/+$/, "")}${PASSWORD_RESET_PATH}?token=${encodeURIComponent(token)}`,
        now: () => container.resolve(Clock).now(),
      });
      filters = [
        new UserAdminFilter(service),
        new PasswordResetFilter({ tokens: resetTokens, users, hasher, signOutEverywhere, audit }),
      ];
    },
    async filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
      if (!filters)
        throw new PlatformError("DEPENDENCY_MISSING", "userAdminApi() was not attached to a platform");
      const run = (i: number): Promise<void> =>
        i < filters!.length ? filters![i]!.filter(exchange, () => run(i + 1)) : next();
      return run(0);
    },
  };
}
