import type { DependencyContainer, InjectionToken } from "tsyringe";
import { AuditSink } from "../../../kernel/audit-sink.js";
import { Clock } from "../../../kernel/clock.js";
import { IdGenerator } from "../../../kernel/id-generator.js";
import { PlatformProperties } from "../../../kernel/properties.js";
import { ServerAddress } from "../../../kernel/server-address.js";
import { type RouteMount, routeMount } from "../../chain/chain-route.js";
import { OneTimeTokenDelivery } from "../../ott/one-time-token-delivery.js";
import { OneTimeTokenService } from "../../ott/one-time-token-service.js";
import { PasswordHasher } from "../../password/password-hasher.js";
import { publicUrlOf } from "../../public-url.properties.js";
import { SessionStore } from "../../session/session-store.js";
import { TokenService } from "../../tokens/token-service.js";
import { AccountStanding, newSecurityStamp } from "../standing/account-standing.js";
import { UserRepository } from "../user-repository.js";
import { AccountNotices } from "../../notices/account-notices.js";
import { AccountDeletionHook } from "./account-deletion-hook.js";
import { AccountFactorReset } from "./account-factor-reset.js";
import { AccountUnlockHook } from "./account-unlock-hook.js";
import { AdministratorGuardToken } from "./administrator-guard.js";
import { PasswordResetEndpoint } from "./password-reset-endpoint.js";
import { PASSWORD_RESET_PATH, PasswordResetTokenService } from "./password-reset-tokens.js";
import { USER_ADMIN_FEATURE, UserAdminEndpoints } from "./user-admin-endpoints.js";
import { UserAdministrationService } from "./user-administration-service.js";
import { addressedDelivery } from "../../ott/addressed-delivery.js";

/** DI token of the platform's UserAdministrationService: hosts change accounts through it, guarded like the API. */
export const UserAdministration: InjectionToken<UserAdministrationService> = Symbol.for(
  "platform.UserAdministration",
);

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
      const service = container.resolve(UserAdministration);
      const reset = new PasswordResetEndpoint({
        tokens: container.resolve(PasswordResetTokenService),
        users: container.resolve(UserRepository),
        hasher: container.resolve(PasswordHasher),
        signOutEverywhere: signOutEverywhereIn(container),
        newStamp: stampsOf(container),
        audit: container.resolve(AuditSink),
        notices: container.isRegistered(AccountNotices, true) ? container.resolve(AccountNotices) : undefined,
      });
      return [...new UserAdminEndpoints(service).routes(), ...reset.routes(USER_ADMIN_FEATURE)];
    },
  });
}

/** The UserAdministrationService over the platform's ports (identity registers it as the default). */
export function userAdministrationServiceOf(container: DependencyContainer): UserAdministrationService {
  const resetTokens = container.resolve(PasswordResetTokenService);
  const publicUrl = publicUrlOf(container.resolve(PlatformProperties), container.resolve(ServerAddress));
  return new UserAdministrationService({
    users: container.resolve(UserRepository),
    hasher: container.resolve(PasswordHasher),
    audit: container.resolve(AuditSink),
    signOutEverywhere: signOutEverywhereIn(container),
    revokeMailedLinks: revokeMailedLinksIn(container),
    resetTokens,
    delivery: addressedDelivery(container.resolve(OneTimeTokenDelivery), container.resolve(UserRepository)),
    unlockHooks: () =>
      container.isRegistered(AccountUnlockHook, true) ? container.resolveAll(AccountUnlockHook) : [],
    deletionHooks: () =>
      container.isRegistered(AccountDeletionHook, true) ? container.resolveAll(AccountDeletionHook) : [],
    factorResets: () =>
      container.isRegistered(AccountFactorReset, true) ? container.resolveAll(AccountFactorReset) : [],
    notices: container.isRegistered(AccountNotices, true) ? container.resolve(AccountNotices) : undefined,
    resetLink: (token) =>
      `${publicUrl().replace(/\/+$/, "")}${PASSWORD_RESET_PATH}?token=${encodeURIComponent(token)}`,
    now: () => container.resolve(Clock).now(),
    guard: container.resolve(AdministratorGuardToken),
    newStamp: stampsOf(container),
  });
}

/**
 * Ends every sign-in of a user after a standing change, before the caller answers: the account's
 * cached standing is dropped here and on the other instances (counter bump), its sessions deleted
 * (by the store's user index), its refresh tokens revoked, its access tokens denied and its unspent
 * one-time tokens (magic links, password-reset links) revoked: by the account's username, which a
 * deleted account passes (`username`), so a link mailed just before the delete cannot sign in a new
 * account of the same name.
 */
export function signOutEverywhereIn(
  container: DependencyContainer,
): (userId: string, username?: string) => Promise<void> {
  return async (userId, username) => {
    await container.resolve(AccountStanding).changed(userId);
    await container.resolve(SessionStore).deleteByUser(userId);
    await container.resolve(TokenService).revokeAllForUser(userId);
    // Links mailed before the change (magic links, password-reset links) die with it.
    const name = username ?? (await container.resolve(UserRepository).findById(userId))?.username;
    if (name === undefined) return;
    await revokeMailedLinksIn(container)(name);
  };
}

/**
 * Voids every single-use link mailed for a user (magic links, password-reset links): after a change
 * of standing, or of the address the links went to (the old mailbox may be in other hands).
 */
export function revokeMailedLinksIn(container: DependencyContainer): (username: string) => Promise<void> {
  return async (username) => {
    for (const tokens of oneTimeTokenServicesOf(container)) await tokens.revokeAllFor(username);
  };
}

function oneTimeTokenServicesOf(container: DependencyContainer): OneTimeTokenService[] {
  const services = [container.resolve(PasswordResetTokenService)];
  if (container.isRegistered(OneTimeTokenService, true))
    services.push(container.resolve(OneTimeTokenService));
  return services;
}

function stampsOf(container: DependencyContainer): () => string {
  const ids = container.resolve(IdGenerator);
  return () => newSecurityStamp((n) => ids.secret(n));
}
