import type { AuditSink } from "../../../kernel/audit-sink.js";
import { PlatformError } from "../../../kernel/platform-error.js";
import type { Authentication } from "../../authentication/authentication.js";
import type { OneTimeTokenDelivery } from "../../ott/one-time-token-delivery.js";
import type { OneTimeTokenService } from "../../ott/one-time-token-service.js";
import type { PasswordHasher } from "../../password/password-hasher.js";
import type { UserAccount } from "../user-account.js";
import type { UserListQuery, UserRepository } from "../user-repository.js";
import type { AccountNotices } from "../../notices/account-notices.js";
import type { AccountDeletionHook } from "./account-deletion-hook.js";
import type { AccountFactorReset } from "./account-factor-reset.js";
import type { AccountUnlockHook } from "./account-unlock-hook.js";
import type { AdministratorGuard } from "./administrator-guard.js";
import { assertAcceptablePassword, assertAcceptableUsername } from "./account-rules.js";
import { checkEmailAddress } from "../email-address.js";

/** An account as the admin API shows it: never the password hash, only whether there is one. */
export interface UserView {
  id: string;
  username: string;
  authorities: readonly string[];
  enabled: boolean;
  locked: boolean;
  hasPassword: boolean;
  /** The account's e-mail address, when it has one (administrators only ever see this view). */
  email?: string;
  version: number;
  createdAt: number;
}

/** What an administrator supplies to create an account. */
export interface NewUserRequest {
  username: string;
  /** Omit for an account that signs in by passkey or magic link only (or gets a reset link). */
  password?: string | undefined;
  authorities?: readonly string[] | undefined;
  enabled?: boolean | undefined;
  /** The account's e-mail address (checked by `checkEmailAddress`); omit for none. */
  email?: string | undefined;
}

/** Collaborators of the UserAdministrationService. */
export interface UserAdministrationServiceOptions {
  users: UserRepository;
  hasher: PasswordHasher;
  audit: AuditSink;
  /**
   * Ends every sign-in of a user after a standing change: sessions deleted, refresh tokens revoked,
   * access tokens denied, the account's cached standing dropped on every instance.
   */
  signOutEverywhere: (userId: string, username?: string) => Promise<unknown>;
  /** Voids the single-use links mailed for a user (the address they went to changed); absent: none. */
  revokeMailedLinks?: (username: string) => Promise<unknown>;
  /** Keeps an available administrator: every change that may end one's availability runs through it. */
  guard: AdministratorGuard;
  /** A fresh security stamp (see AccountStanding). */
  newStamp: () => string;
  /** The AccountUnlockHook family, read when an unlock runs (members come from later plugins). */
  unlockHooks: () => readonly AccountUnlockHook[];
  /** What features erase with an account (absent: none). */
  deletionHooks?: () => readonly AccountDeletionHook[];
  /** What holds the account's plugin factors and forgets them on a reset (absent: none). */
  factorResets?: () => readonly AccountFactorReset[];
  /** Tells a user of a change to their account's security (absent: nobody is told). */
  notices?: AccountNotices;
  resetTokens: OneTimeTokenService;
  delivery: OneTimeTokenDelivery;
  /** The absolute reset link for a token value (from the configured public URL, never Host). */
  resetLink: (tokenValue: string) => string;
  now: () => number;
  /** The authority that may administer users. Default `ROLE_ADMIN`. */
  adminAuthority?: string;
}

const AUTHORITY = /^[A-Z][A-Z0-9_]{0,63}$/;
/** Most authorities one account may hold. */
export const MAX_AUTHORITIES = 32;

/**
 * The users admin API's service: list, read, create, disable, enable, unlock, reset passwords, change
 * authorities and delete. Every call checks the caller's authority first (refusals are audited), every
 * change is audited with the actor and the account id (never a password or token), and answers never
 * carry a hash. A change to an account's standing (disable, delete, password set, authorities changed)
 * gives it a new security stamp and ends every sign-in of it (sessions, tokens) before it returns; on
 * other instances the old sign-ins stop within the change poll interval. A change that may leave no
 * available administrator runs through the AdministratorGuard (409 LAST_ADMINISTRATOR). Hosts call
 * this service (DI token `UserAdministration`) and are guarded the same way.
 */
export class UserAdministrationService {
  private readonly adminAuthority: string;

  constructor(private readonly o: UserAdministrationServiceOptions) {
    this.adminAuthority = o.adminAuthority ?? "ROLE_ADMIN";
  }

  /** Throws ACCESS_DENIED (audited) unless `actor` holds the admin authority. */
  assertAdmin(actor: Authentication, action: string, userId?: string): void {
    if (actor.authorities.includes(this.adminAuthority)) return;
    this.audit(actor, "user.admin.access-denied", "denied", { action, ...(userId ? { userId } : {}) });
    throw new PlatformError("ACCESS_DENIED", "Only administrators may manage users");
  }

  /** A page of accounts (see UserRepository.list). */
  async list(query: UserListQuery, actor: Authentication): Promise<UserView[]> {
    this.assertAdmin(actor, "list");
    return (await this.o.users.list(query)).map(userView);
  }

  /** One account; NOT_FOUND when unknown. */
  async get(id: string, actor: Authentication): Promise<UserView> {
    this.assertAdmin(actor, "get", id);
    return userView(await this.find(id));
  }

  /** Creates an account (CONFLICT when the username is taken). */
  async create(request: NewUserRequest, actor: Authentication): Promise<UserView> {
    this.assertAdmin(actor, "create");
    const authorities = checkAuthorities(request.authorities ?? ["ROLE_USER"]);
    const email = request.email === undefined ? undefined : checkEmailAddress(request.email);
    if (email !== undefined) await this.assertMailboxFree(email, undefined);
    const passwordHash =
      request.password === undefined
        ? undefined
        : await this.o.hasher.hash(assertAcceptablePassword(request.password));
    const created = await this.o.users.create({
      username: assertAcceptableUsername(request.username),
      passwordHash,
      authorities,
      enabled: request.enabled ?? true,
      ...(email === undefined ? {} : { email }),
    });
    this.audit(actor, "user.created", "success", {
      userId: created.id,
      authorities,
      ...(email === undefined ? {} : { emailDomain: domainOf(email) }),
    });
    return userView(created);
  }

  /** Enables or disables an account; disabling also revokes its refresh tokens. */
  async setEnabled(id: string, enabled: boolean, actor: Authentication): Promise<UserView> {
    this.assertAdmin(actor, enabled ? "enable" : "disable", id);
    if (!enabled && id === actor.userId) {
      throw new PlatformError("CONFLICT", "An administrator cannot disable their own account");
    }
    const apply = () =>
      this.change(id, (a) =>
        enabled ? { ...a, enabled } : { ...a, enabled, securityStamp: this.o.newStamp() },
      );
    const updated = enabled ? await apply() : await this.o.guard.guard(id, apply);
    if (!enabled) await this.o.signOutEverywhere(id);
    this.audit(actor, enabled ? "user.enabled" : "user.disabled", "success", { userId: id });
    return userView(updated);
  }

  /** Clears the account's lock flag, then runs every unlock hook (login throttle, MFA lockout). */
  async unlock(id: string, actor: Authentication): Promise<UserView> {
    this.assertAdmin(actor, "unlock", id);
    const updated = await this.change(id, (a) => ({ ...a, locked: false }));
    const hooks = this.o.unlockHooks();
    for (const hook of hooks) await hook.unlock(updated);
    this.audit(actor, "user.unlocked", "success", { userId: id, hooks: hooks.map((h) => h.id) });
    return userView(updated);
  }

  /**
   * Removes the account's plugin factors (an authenticator app, recovery codes: every
   * AccountFactorReset member) after a lost phone; the e-mailed code and passkeys stay. Audited with
   * the types removed and announced to the user when anything was; the sign-ins are not ended (the
   * user still holds them). NOT_FOUND for an unknown account.
   */
  async resetFactors(id: string, actor: Authentication): Promise<{ user: UserView; removed: string[] }> {
    this.assertAdmin(actor, "factors-reset", id);
    const account = await this.find(id);
    const members = this.o.factorResets?.() ?? [];
    const removed: string[] = [];
    for (const member of members) removed.push(...(await member.resetFactors(account)));
    this.audit(actor, "user.factors-reset", "success", {
      userId: id,
      removed,
      hooks: members.map((m) => m.id),
    });
    if (removed.length > 0) {
      this.o.notices?.send({
        username: account.username,
        kind: "factors-reset",
        text: "An administrator removed your authenticator app and recovery codes. Set them up again from your account page.",
      });
    }
    return { user: userView(account), removed };
  }

  /** Sets a new password chosen by the administrator; the account's refresh tokens are revoked. */
  async setPassword(id: string, password: unknown, actor: Authentication): Promise<UserView> {
    this.assertAdmin(actor, "reset-password", id);
    const passwordHash = await this.o.hasher.hash(assertAcceptablePassword(password));
    const updated = await this.change(id, (a) => ({ ...a, passwordHash, securityStamp: this.o.newStamp() }));
    await this.o.signOutEverywhere(id);
    this.audit(actor, "user.password-set", "success", { userId: id });
    return userView(updated);
  }

  /**
   * Replaces the account's authorities; a change ends its sign-ins (they carried the old ones). Taking
   * the administrator authority away runs through the AdministratorGuard. Unchanged authorities change
   * nothing.
   */
  async setAuthorities(id: string, authorities: unknown, actor: Authentication): Promise<UserView> {
    this.assertAdmin(actor, "authorities", id);
    const wanted = checkAuthorities(authorities);
    const current = await this.find(id);
    if (sameSet(current.authorities, wanted)) return userView(current);
    const apply = () =>
      this.change(id, (a) => ({ ...a, authorities: wanted, securityStamp: this.o.newStamp() }));
    const removesAdmin = !wanted.includes(this.o.guard.adminAuthority);
    const updated = removesAdmin ? await this.o.guard.guard(id, apply) : await apply();
    await this.o.signOutEverywhere(id);
    this.audit(actor, "user.authorities-changed", "success", {
      userId: id,
      from: [...current.authorities],
      to: wanted,
    });
    return userView(updated);
  }

  /**
   * Sets the account's e-mail address (checked and canonicalised by `checkEmailAddress`; CONFLICT when
   * another account holds it), or clears it with `null`. Set by an administrator, so trusted: one-time
   * tokens, MFA codes and reset links go to it from now on. Audited with the domain only (the change
   * matters to an investigation: a reset link follows the address); an unchanged address changes nothing.
   */
  async setEmail(id: string, email: string | null, actor: Authentication): Promise<UserView> {
    this.assertAdmin(actor, "email", id);
    const wanted = email === null ? undefined : checkEmailAddress(email);
    const current = await this.find(id);
    if (current.email === wanted) return userView(current);
    if (wanted !== undefined) await this.assertMailboxFree(wanted, id);
    const updated = await this.change(id, (a) => ({ ...a, email: wanted }));
    // Links mailed to the old address (a reset link, a magic link) must not outlive it.
    await this.o.revokeMailedLinks?.(updated.username);
    this.audit(actor, wanted === undefined ? "user.email-cleared" : "user.email-set", "success", {
      userId: id,
      ...(wanted === undefined ? {} : { emailDomain: domainOf(wanted) }),
    });
    return userView(updated);
  }

  /** Deletes the account and ends its sign-ins; an administrator cannot delete their own account. */
  async delete(id: string, actor: Authentication): Promise<void> {
    this.assertAdmin(actor, "delete", id);
    if (id === actor.userId) {
      throw new PlatformError("CONFLICT", "An administrator cannot delete their own account");
    }
    const account = await this.find(id);
    const hooks = this.o.deletionHooks?.() ?? [];
    const deleted = await this.o.guard.guard(id, async () => {
      // While the account exists: its links are found by its username, its sessions by its id.
      await this.o.signOutEverywhere(id);
      // Then what features keep about the user (a failure stops here: nothing removed, ask again).
      for (const hook of hooks) await hook.accountDeleting(account);
      return this.o.users.delete(id);
    });
    if (!deleted) throw new PlatformError("NOT_FOUND", "No such user");
    // Again, gone: whatever was issued between the first pass and the delete (a link by username).
    await this.o.signOutEverywhere(id, account.username);
    this.audit(actor, "user.deleted", "success", { userId: id, hooks: hooks.map((h) => h.id) });
  }

  /**
   * Mails the account a single-use reset link through the delivery port (channel `password-reset`).
   * The token is never part of the answer or the audit record.
   */
  async sendResetLink(id: string, actor: Authentication): Promise<UserView> {
    this.assertAdmin(actor, "reset-password", id);
    const account = await this.find(id);
    const token = await this.o.resetTokens.generate({ username: account.username });
    const value = token.getTokenValue();
    try {
      await this.o.delivery.deliver({
        username: account.username,
        to: account.username,
        token: value,
        link: this.o.resetLink(value),
        channel: "password-reset",
        at: this.o.now(),
      });
    } catch (error) {
      // The answer (503 DELIVERY_FAILED) tells the administrator; the trail keeps what failed (never the
      // token, the link or the address: only the error's code).
      const code = error instanceof PlatformError ? error.code : "UNKNOWN";
      this.audit(actor, "user.password-reset-link-failed", "failure", { userId: id, error: code });
      throw error;
    }
    this.audit(actor, "user.password-reset-link-sent", "success", { userId: id });
    return userView(account);
  }

  /**
   * CONFLICT when `email` is another account's username: an account without an address is mailed at
   * its username, so the two would share a mailbox (and its reset links). The stores keep addresses
   * unique among themselves; this covers an address against the usernames.
   */
  private async assertMailboxFree(email: string, ownId: string | undefined): Promise<void> {
    const named = await this.o.users.findByUsername(email);
    if (named !== undefined && named.id !== ownId) {
      throw new PlatformError(
        "CONFLICT",
        "The address is another account's username (they would share a mailbox)",
      );
    }
  }

  private async find(id: string): Promise<UserAccount> {
    const account = await this.o.users.findById(id);
    if (!account) throw new PlatformError("NOT_FOUND", "No such user");
    return account;
  }

  // Read, change, compare-and-set; one retry when a concurrent change (a sign-in's rehash) won.
  private async change(id: string, apply: (a: UserAccount) => UserAccount): Promise<UserAccount> {
    for (let attempt = 0; ; attempt++) {
      const current = await this.find(id);
      try {
        return await this.o.users.update(apply(current));
      } catch (error) {
        if (attempt === 0 && (error as PlatformError).code === "CONFLICT") continue;
        throw error;
      }
    }
  }

  private audit(
    actor: Authentication,
    type: string,
    outcome: "success" | "denied" | "failure",
    data: Record<string, unknown>,
  ): void {
    this.o.audit.record({
      type,
      outcome,
      principal: actor.username,
      data: { actorId: actor.userId, ...data },
    });
  }
}

/** The admin API's view of an account. */
export function userView(account: UserAccount): UserView {
  return {
    id: account.id,
    username: account.username,
    authorities: [...account.authorities],
    enabled: account.enabled,
    locked: account.locked,
    hasPassword: account.passwordHash !== undefined,
    ...(account.email === undefined ? {} : { email: account.email }),
    version: account.version,
    createdAt: account.createdAt,
  };
}

/** The domain of a checked address (what the audit records of it). */
function domainOf(address: string): string {
  return address.slice(address.lastIndexOf("@") + 1);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

function checkAuthorities(authorities: unknown): string[] {
  if (!Array.isArray(authorities) || authorities.length > MAX_AUTHORITIES) {
    throw invalid("authorities", `must be a list of at most ${MAX_AUTHORITIES} authorities`);
  }
  for (const a of authorities) {
    if (typeof a !== "string" || !AUTHORITY.test(a)) {
      throw invalid("authorities", "must hold names like ROLE_USER (A-Z, 0-9, _; at most 64)");
    }
  }
  return [...new Set(authorities as string[])];
}

function invalid(path: string, message: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", `The request is invalid: ${path} ${message}`, {
    details: { issues: [{ path, message }] },
  });
}
