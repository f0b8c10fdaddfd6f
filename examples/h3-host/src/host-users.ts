import { PlatformError } from "@keyward/core/errors";
import {
  checkNewUsername,
  USER_LIST_DEFAULT_LIMIT,
  USER_LIST_MAX_LIMIT,
  usernameKey,
  usernameSkeleton,
} from "@keyward/core/adapter-kit";
import type {
  Clock,
  IdGenerator,
  NewUserAccount,
  UserAccount,
  UserListQuery,
  UserRepository,
} from "@keyward/core/ports";

/** How this service stores a user: its own shape and names, not the platform's. */
export interface HostUserRecord {
  id: string;
  login: string;
  email?: string | undefined;
  /** bcrypt or argon2 from the previous system, or the platform's scrypt once upgraded. */
  passwordHash?: string | undefined;
  roles: string[];
  active: boolean;
  locked: boolean;
  securityStamp?: string | undefined;
  version: number;
  createdAt: number;
}

/** What HostUsers needs from the platform: ids and time for new accounts. */
export interface HostUsersOptions {
  ids: IdGenerator;
  clock: Clock;
  /** The accounts the service already has (kept by reference: the Map is this service's storage). */
  records?: readonly HostUserRecord[];
}

/**
 * The service's own user storage (a Map of its own records) behind the platform's UserRepository
 * port. Sign-in needs `findByUsername` (matched by `usernameKey`: case, width and padding do not
 * matter) and `update` (the hash upgrade, lockouts); `findById` serves sessions and tokens; the admin
 * API and CLI use the rest. Unique: the username's key and skeleton (lookalikes), and the e-mail
 * address case-insensitively. Each method checks and writes without an `await` in between, so a
 * check-then-write is atomic, as a database's unique index and conditional update would make it.
 */
export class HostUsers implements UserRepository {
  /** The storage, by id. */
  readonly records = new Map<string, HostUserRecord>();
  private readonly idByKey = new Map<string, string>();
  private readonly idBySkeleton = new Map<string, string>();
  private readonly idByEmail = new Map<string, string>();

  constructor(private readonly o: HostUsersOptions) {
    for (const r of o.records ?? []) this.index(r);
  }

  async findByUsername(username: string): Promise<UserAccount | undefined> {
    const id = this.idByKey.get(usernameKey(username));
    return id === undefined ? undefined : this.findById(id);
  }

  async findById(id: string): Promise<UserAccount | undefined> {
    const record = this.records.get(id);
    return record && toAccount(record);
  }

  async create(input: NewUserAccount): Promise<UserAccount> {
    const login = checkNewUsername(input.username);
    this.assertFree(login, input.email, undefined);
    const record: HostUserRecord = {
      id: this.o.ids.id(),
      login,
      email: input.email,
      passwordHash: input.passwordHash,
      roles: [...(input.authorities ?? [])],
      active: input.enabled ?? true,
      locked: input.locked ?? false,
      version: 1,
      createdAt: this.o.clock.now(),
    };
    this.index(record);
    return toAccount(record);
  }

  async update(account: UserAccount): Promise<UserAccount> {
    const stored = this.records.get(account.id);
    if (!stored) throw new PlatformError("NOT_FOUND", "No such account");
    if (stored.version !== account.version)
      throw new PlatformError("CONFLICT", "Account was changed concurrently (stale version)");
    const renamed = account.username !== stored.login;
    const login = renamed ? checkNewUsername(account.username) : stored.login;
    this.assertFree(renamed ? login : undefined, account.email, stored.id);
    this.unindex(stored);
    const next: HostUserRecord = {
      ...fromAccount(account),
      login,
      id: stored.id,
      createdAt: stored.createdAt,
      version: stored.version + 1,
    };
    this.index(next);
    return toAccount(next);
  }

  async delete(id: string): Promise<boolean> {
    const stored = this.records.get(id);
    if (stored) this.unindex(stored);
    return stored !== undefined;
  }

  async count(): Promise<number> {
    return this.records.size;
  }

  async list(query: UserListQuery = {}): Promise<UserAccount[]> {
    const text = query.text ? usernameKey(query.text) : "";
    const offset = Math.max(0, Math.trunc(query.offset ?? 0));
    const limit = Math.min(
      USER_LIST_MAX_LIMIT,
      Math.max(1, Math.trunc(query.limit ?? USER_LIST_DEFAULT_LIMIT)),
    );
    return [...this.idByKey.entries()]
      .filter(([key]) => text === "" || key.includes(text))
      .sort(([a, idA], [b, idB]) => (a < b ? -1 : a > b ? 1 : idA < idB ? -1 : 1))
      .slice(offset, offset + limit)
      .map(([, id]) => toAccount(this.records.get(id)!));
  }

  /** CONFLICT when another account holds the login's key or skeleton, or the address. */
  private assertFree(login: string | undefined, email: string | undefined, self: string | undefined): void {
    const other = (id: string | undefined) => id !== undefined && id !== self;
    if (
      login !== undefined &&
      (other(this.idByKey.get(usernameKey(login))) || other(this.idBySkeleton.get(usernameSkeleton(login))))
    )
      throw new PlatformError("CONFLICT", "Username is already taken");
    if (email !== undefined && other(this.idByEmail.get(email.toLowerCase())))
      throw new PlatformError("CONFLICT", "E-mail address is already taken");
  }

  private index(r: HostUserRecord): void {
    this.records.set(r.id, r);
    this.idByKey.set(usernameKey(r.login), r.id);
    this.idBySkeleton.set(usernameSkeleton(r.login), r.id);
    if (r.email !== undefined) this.idByEmail.set(r.email.toLowerCase(), r.id);
  }

  private unindex(r: HostUserRecord): void {
    this.records.delete(r.id);
    this.idByKey.delete(usernameKey(r.login));
    if (this.idBySkeleton.get(usernameSkeleton(r.login)) === r.id)
      this.idBySkeleton.delete(usernameSkeleton(r.login));
    if (r.email !== undefined) this.idByEmail.delete(r.email.toLowerCase());
  }
}

/** The platform's view of a record: a fresh object, so a caller changing it changes nothing stored. */
function toAccount(r: HostUserRecord): UserAccount {
  return {
    id: r.id,
    username: r.login,
    passwordHash: r.passwordHash,
    authorities: [...r.roles],
    enabled: r.active,
    locked: r.locked,
    ...(r.securityStamp === undefined ? {} : { securityStamp: r.securityStamp }),
    ...(r.email === undefined ? {} : { email: r.email }),
    version: r.version,
    createdAt: r.createdAt,
  };
}

/** A record for what the platform hands back (copied: a later change to `a` changes nothing stored). */
function fromAccount(a: UserAccount): Omit<HostUserRecord, "login" | "id" | "createdAt" | "version"> {
  return {
    email: a.email,
    passwordHash: a.passwordHash,
    roles: [...a.authorities],
    active: a.enabled,
    locked: a.locked,
    securityStamp: a.securityStamp,
  };
}
