import type { Clock } from "../../kernel/clock.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { checkNewUsername } from "./check-new-username.js";
import type { NewUserAccount, UserAccount } from "./user-account.js";
import {
  USER_LIST_DEFAULT_LIMIT,
  USER_LIST_MAX_LIMIT,
  type UserListQuery,
  type UserRepository,
} from "./user-repository.js";
import { userAccountFrom } from "./user-account-from.js";
import { usernameKey, usernameSkeleton } from "./username-key.js";
import { emailAddressKey } from "./email-address.js";

/** Collaborators of the InMemoryUserRepository. */
export interface InMemoryUserRepositoryOptions {
  /** Assigns account ids. */
  ids: IdGenerator;
  /** Stamps `createdAt`. */
  clock: Clock;
}

/**
 * The reference UserRepository, used by tests and the embedded default. Each method runs without an
 * `await` between its check and its write, so a check-then-write is atomic on the event loop: the same
 * unique-key and compare-and-set outcomes a database adapter gets from a unique index and a
 * conditional update. Three keys are unique: `usernameKey` (what sign-in looks up),
 * `usernameSkeleton` (what tells lookalike names apart) and, when an account has an address,
 * `emailAddressKey(email)`. It starts empty, so it never holds a name stored before the username rule.
 */
export class InMemoryUserRepository implements UserRepository {
  private readonly byId = new Map<string, UserAccount>();
  private readonly idByKey = new Map<string, string>();
  private readonly idBySkeleton = new Map<string, string>();
  private readonly idByEmail = new Map<string, string>();
  private readonly ids: IdGenerator;
  private readonly clock: Clock;

  constructor(options: InMemoryUserRepositoryOptions) {
    this.ids = options.ids;
    this.clock = options.clock;
  }

  async findByUsername(username: string): Promise<UserAccount | undefined> {
    const id = this.idByKey.get(usernameKey(username));
    return id === undefined ? undefined : this.findById(id);
  }

  async findById(id: string): Promise<UserAccount | undefined> {
    const stored = this.byId.get(id);
    return stored && copy(stored);
  }

  async create(input: NewUserAccount): Promise<UserAccount> {
    const username = checkNewUsername(input.username);
    const key = usernameKey(username);
    const skeleton = usernameSkeleton(username);
    if (this.idByKey.has(key) || this.idBySkeleton.has(skeleton)) {
      throw new PlatformError("CONFLICT", "Username is already taken");
    }
    if (input.email !== undefined && this.idByEmail.has(emailAddressKey(input.email))) throw emailTaken();
    const account: UserAccount = {
      id: this.ids.id(),
      username,
      passwordHash: input.passwordHash,
      authorities: [...(input.authorities ?? [])],
      enabled: input.enabled ?? true,
      locked: input.locked ?? false,
      ...(input.email === undefined ? {} : { email: input.email }),
      version: 1,
      createdAt: this.clock.now(),
    };
    if (this.byId.has(account.id)) throw new PlatformError("CONFLICT", "Generated account id already exists");
    this.byId.set(account.id, account);
    this.idByKey.set(key, account.id);
    this.idBySkeleton.set(skeleton, account.id);
    if (account.email !== undefined) this.idByEmail.set(emailAddressKey(account.email), account.id);
    return copy(account);
  }

  async update(account: UserAccount): Promise<UserAccount> {
    const stored = this.byId.get(account.id);
    if (!stored) throw new PlatformError("NOT_FOUND", "No such account");
    if (stored.version !== account.version) {
      throw new PlatformError("CONFLICT", "Account was changed concurrently (stale version)", {
        details: { expectedVersion: account.version },
      });
    }
    const username = account.username === stored.username ? stored.username : this.claim(account);
    this.claimEmail(account);
    const next: UserAccount = {
      ...copy(account),
      username,
      id: stored.id,
      createdAt: stored.createdAt,
      version: stored.version + 1,
    };
    this.byId.set(next.id, next);
    if (username !== stored.username) {
      this.release(stored);
      this.idByKey.set(usernameKey(username), next.id);
      this.idBySkeleton.set(usernameSkeleton(username), next.id);
    }
    this.moveEmail(stored, next);
    return copy(next);
  }

  async delete(id: string): Promise<boolean> {
    const stored = this.byId.get(id);
    if (!stored) return false;
    this.byId.delete(id);
    this.release(stored);
    return true;
  }

  async count(): Promise<number> {
    return this.byId.size;
  }

  async list(query: UserListQuery = {}): Promise<UserAccount[]> {
    const text = query.text ? usernameKey(query.text) : "";
    const offset = Math.max(0, Math.trunc(query.offset ?? 0));
    const limit = Math.min(
      USER_LIST_MAX_LIMIT,
      Math.max(1, Math.trunc(query.limit ?? USER_LIST_DEFAULT_LIMIT)),
    );
    const keys = [...this.idByKey.entries()]
      .filter(([key]) => text === "" || key.includes(text))
      .sort(([a, idA], [b, idB]) => (a < b ? -1 : a > b ? 1 : idA < idB ? -1 : 1));
    return keys.slice(offset, offset + limit).map(([, id]) => copy(this.byId.get(id)!));
  }

  /** A new name for `account`: checked by the username rule, refused when another account holds either key. */
  private claim(account: UserAccount): string {
    const username = checkNewUsername(account.username);
    const key = this.idByKey.get(usernameKey(username));
    const skeleton = this.idBySkeleton.get(usernameSkeleton(username));
    if ((key !== undefined && key !== account.id) || (skeleton !== undefined && skeleton !== account.id)) {
      throw new PlatformError("CONFLICT", "Username is already taken");
    }
    return username;
  }

  /** Refuses `account`'s address when another account holds its key. */
  private claimEmail(account: UserAccount): void {
    if (account.email === undefined) return;
    const holder = this.idByEmail.get(emailAddressKey(account.email));
    if (holder !== undefined && holder !== account.id) throw emailTaken();
  }

  /** Moves the address key from what `before` held to what `after` holds. */
  private moveEmail(before: UserAccount, after: UserAccount): void {
    if (before.email !== undefined) this.idByEmail.delete(emailAddressKey(before.email));
    if (after.email !== undefined) this.idByEmail.set(emailAddressKey(after.email), after.id);
  }

  /** Frees the keys `account`'s stored name and address hold. */
  private release(account: UserAccount): void {
    if (account.email !== undefined) this.idByEmail.delete(emailAddressKey(account.email));
    this.idByKey.delete(usernameKey(account.username));
    const skeleton = usernameSkeleton(account.username);
    if (this.idBySkeleton.get(skeleton) === account.id) this.idBySkeleton.delete(skeleton);
  }
}

function emailTaken(): PlatformError {
  return new PlatformError("CONFLICT", "E-mail address is already taken");
}

function copy(account: UserAccount): UserAccount {
  return userAccountFrom(account.id, account);
}
