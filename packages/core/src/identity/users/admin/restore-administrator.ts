import type { DependencyContainer, InjectionToken } from "tsyringe";
import { AuditSink } from "../../../kernel/audit-sink.js";
import { IdGenerator } from "../../../kernel/id-generator.js";
import { PlatformError } from "../../../kernel/platform-error.js";
import { AccountStanding, newSecurityStamp } from "../standing/account-standing.js";
import { UserRepository } from "../user-repository.js";
import { AccountUnlockHook } from "./account-unlock-hook.js";
import { AdministratorAvailabilityCheck, AdministratorGuardToken } from "./administrator-guard.js";
import { signOutEverywhereIn } from "./user-admin-api.js";

/** What `restoreAdministrator` did. */
export interface RestoredAdministrator {
  readonly userId: string;
  readonly username: string;
  /** The availability checks and unlock hooks that ran (`zero-trust`, `mfa-lockout`, `login-throttle`, …). */
  readonly cleared: readonly string[];
}

/**
 * The break-glass path when no administrator is available (all blocked, locked or disabled, by any
 * route): makes `username` an available administrator again, with no lease and no guard (it only adds
 * availability). The account is enabled and unlocked, given the administrator authority and a new
 * security stamp (every earlier sign-in of it ends: whoever held them is not trusted now), every
 * availability check restores it (zero trust's BLOCK or ESCALATE lifted, MFA lockout ended), every
 * unlock hook runs, and `user.break-glass` is audited with the operator. NOT_FOUND for an unknown
 * username. Run locally against the store by `platform break-glass`, never over HTTP.
 */
export async function restoreAdministrator(
  c: DependencyContainer,
  request: { username: string; operator: string },
): Promise<RestoredAdministrator> {
  const users = c.resolve(UserRepository);
  const account = await users.findByUsername(request.username);
  if (!account) throw new PlatformError("NOT_FOUND", "No such user");
  const authority = c.resolve(AdministratorGuardToken).adminAuthority;
  const ids = c.resolve(IdGenerator);
  const restored = await users.update({
    ...account,
    enabled: true,
    locked: false,
    authorities: account.authorities.includes(authority)
      ? account.authorities
      : [...account.authorities, authority],
    securityStamp: newSecurityStamp((n) => ids.secret(n)),
  });
  const cleared: string[] = [];
  for (const check of familyOf(c, AdministratorAvailabilityCheck)) {
    await check.restore(restored);
    cleared.push(check.id);
  }
  for (const hook of familyOf(c, AccountUnlockHook)) {
    await hook.unlock(restored);
    cleared.push(hook.id);
  }
  await signOutEverywhereIn(c)(restored.id);
  await c.resolve(AccountStanding).changed(restored.id);
  c.resolve(AuditSink).record({
    type: "user.break-glass",
    outcome: "success",
    principal: request.operator,
    data: { userId: restored.id, username: restored.username, authority, cleared },
  });
  return { userId: restored.id, username: restored.username, cleared };
}

function familyOf<T>(c: DependencyContainer, token: InjectionToken<T>): T[] {
  return c.isRegistered(token, true) ? c.resolveAll(token) : [];
}
