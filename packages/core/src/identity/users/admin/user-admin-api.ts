import { PlatformProperties } from "../../../kernel/properties.js";
import { ServerAddress } from "../../../kernel/server-address.js";
import { TokenService } from "../../tokens/token-service.js";
import type { DependencyContainer } from "tsyringe";
import { AuditSink } from "../../../kernel/audit-sink.js";
import { Clock } from "../../../kernel/clock.js";
import { type RouteMount, routeMount } from "../../chain/chain-route.js";
import { OneTimeTokenDelivery } from "../../ott/one-time-token-delivery.js";
import { PasswordHasher } from "../../password/password-hasher.js";
import { publicUrlOf } from "../../public-url.properties.js";
import { UserRepository } from "../user-repository.js";
import { AccountUnlockHook } from "./account-unlock-hook.js";
import { PASSWORD_RESET_PATH, PasswordResetTokenService } from "./password-reset-tokens.js";
import { PasswordResetEndpoint } from "./password-reset-endpoint.js";
import { USER_ADMIN_FEATURE, UserAdminEndpoints } from "./user-admin-endpoints.js";
import { UserAdministrationService } from "./user-administration-service.js";

/**
 * The users admin API and the password-reset page, mounted on a chain with
 * `http.addFilterAfter(userAdminApi(), "authorization")` (a chain whose matcher covers
 * `/admin/api/users/**` and `/reset-password`): its routes join the route table under that chain
 * and are served after authorization. The API checks ROLE_ADMIN itself (whatever the chain's rules
 * say); the reset page is for anyone holding a link. Attached to the platform's services at start;
 * CSRF is the chain's (session callers).
 */
export function userAdminApi(): RouteMount {
  return routeMount({
    name: "user-admin-api",
    feature: USER_ADMIN_FEATURE,
    label: "userAdminApi()",
    routes: (container: DependencyContainer) => {
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
      const reset = new PasswordResetEndpoint({
        tokens: resetTokens,
        users,
        hasher,
        signOutEverywhere,
        audit,
      });
      return [...new UserAdminEndpoints(service).routes(), ...reset.routes(USER_ADMIN_FEATURE)];
    },
  });
}
