import {
  checkNewUsername,
  userAccountFrom,
  USER_LIST_DEFAULT_LIMIT,
  USER_LIST_MAX_LIMIT,
  usernameKey,
  usernameSkeleton,
} from "@keyward/core/adapter-kit";
import { PlatformError } from "@keyward/core/errors";
import type {
  Clock,
  IdGenerator,
  NewUserAccount,
  UserAccount,
  UserListQuery,
  UserRepository,
} from "@keyward/core/ports";
import type { Collection, Db } from "mongodb";
import { isDuplicateKey } from "./mongo-errors.js";

/** The `users` collection's document: the account, `_id` = its id, plus the username's two keys. */
export interface UserDocument {
  _id: string;
  username: string;
  /** `usernameKey(username)`: unique, what lookups and the list order use. */
  usernameKey: string;
  /**
   * `usernameSkeleton(username)`: unique where present, what tells lookalike names apart. Absent only
   * on an account whose name already looked like an older account's when migration 2 back-filled it.
   */
  usernameSkeleton?: string;
  passwordHash?: string;
  authorities: string[];
  enabled: boolean;
  locked: boolean;
  /** The account's security stamp (absent until its standing first changes). */
  securityStamp?: string;
  /** The account's e-mail address as given (absent: none). */
  email?: string;
  /**
   * `email` lower-cased (the UserRepository port's rule, `emailAddressKey` in the core): unique where
   * present, so one address belongs to one account whatever its case. Present exactly when `email` is.
   */
  emailKey?: string;
  version: number;
  createdAt: number;
}

/** Options of the MongoUserRepository. */
export interface MongoUserRepositoryOptions {
  db: Db;
  ids: IdGenerator;
  clock: Clock;
  /** Collection name (default `users`). */
  collection?: string;
}

/**
 * UserRepository on MongoDB: unique indexes on the username key, the username skeleton and the e-mail
 * key decide "taken", a `findOneAndUpdate` on `{ _id, version }` is the compare-and-set of `update`.
 */
export class MongoUserRepository implements UserRepository {
  private readonly users: Collection<UserDocument>;
  private readonly ids: IdGenerator;
  private readonly clock: Clock;

  constructor(options: MongoUserRepositoryOptions) {
    this.users = options.db.collection<UserDocument>(options.collection ?? "users");
    this.ids = options.ids;
    this.clock = options.clock;
  }

  /** Creates the collection's indexes (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.users.createIndexes([
      { key: { usernameKey: 1 }, name: "usernameKey_unique", unique: true },
      {
        key: { usernameSkeleton: 1 },
        name: "usernameSkeleton_unique",
        unique: true,
        partialFilterExpression: { usernameSkeleton: { $exists: true } },
      },
      {
        key: { emailKey: 1 },
        name: "emailKey_unique",
        unique: true,
        partialFilterExpression: { emailKey: { $exists: true } },
      },
    ]);
  }

  async findByUsername(username: string): Promise<UserAccount | undefined> {
    const key = usernameKey(username);
    if (key === "") return undefined;
    return toAccount(await this.users.findOne({ usernameKey: key }));
  }

  async findById(id: string): Promise<UserAccount | undefined> {
    return toAccount(await this.users.findOne({ _id: id }));
  }

  async create(input: NewUserAccount): Promise<UserAccount> {
    const username = checkNewUsername(input.username);
    const doc: UserDocument = {
      _id: this.ids.id(),
      username,
      usernameKey: usernameKey(username),
      usernameSkeleton: usernameSkeleton(username),
      authorities: [...(input.authorities ?? [])],
      enabled: input.enabled ?? true,
      locked: input.locked ?? false,
      version: 1,
      createdAt: this.clock.now(),
    };
    if (input.passwordHash !== undefined) doc.passwordHash = input.passwordHash;
    if (input.email !== undefined) Object.assign(doc, emailFields(input.email));
    try {
      await this.users.insertOne(doc);
    } catch (e) {
      throw takenOr(e);
    }
    return toAccount(doc) as UserAccount;
  }

  /**
   * One command when the name is unchanged: the CAS also matches the stored name and leaves the name's
   * keys alone, so an account stored before the username rule stays updatable. Otherwise one read
   * tells a missing account, a stale version and a rename apart; a rename is checked by the rule and
   * claims both keys in a second CAS.
   */
  async update(account: UserAccount): Promise<UserAccount> {
    const fields = {
      authorities: [...account.authorities],
      enabled: account.enabled,
      locked: account.locked,
    };
    const { id, version } = account;
    const kept = await this.compareAndSet({ _id: id, version, username: account.username }, account, fields);
    if (kept) return toAccount(kept) as UserAccount;
    const stored = await this.users.findOne({ _id: id }, { projection: { username: 1, version: 1 } });
    if (!stored) throw new PlatformError("NOT_FOUND", "No such account");
    if (stored.version === version && stored.username !== account.username) {
      const username = checkNewUsername(account.username);
      const renamed = await this.compareAndSet({ _id: id, version }, account, {
        ...fields,
        username,
        usernameKey: usernameKey(username),
        usernameSkeleton: usernameSkeleton(username),
      });
      if (renamed) return toAccount(renamed) as UserAccount;
    }
    throw new PlatformError("CONFLICT", "Account was changed concurrently (stale version)", {
      details: { expectedVersion: version },
    });
  }

  private async compareAndSet(
    filter: { _id: string; version: number; username?: string },
    account: UserAccount,
    set: Partial<UserDocument>,
  ): Promise<UserDocument | null> {
    const unset: Partial<Record<"passwordHash" | "securityStamp" | "email" | "emailKey", "">> = {};
    const fields: Partial<UserDocument> = { ...set };
    for (const field of ["passwordHash", "securityStamp"] as const) {
      const value = account[field];
      if (value === undefined) unset[field] = "";
      else fields[field] = value;
    }
    if (account.email === undefined) Object.assign(unset, { email: "", emailKey: "" });
    else Object.assign(fields, emailFields(account.email));
    const update = {
      $set: fields,
      ...(Object.keys(unset).length === 0 ? {} : { $unset: unset }),
      $inc: { version: 1 },
    };
    try {
      return await this.users.findOneAndUpdate(filter, update, { returnDocument: "after" });
    } catch (e) {
      throw takenOr(e);
    }
  }

  async delete(id: string): Promise<boolean> {
    return (await this.users.deleteOne({ _id: id })).deletedCount === 1;
  }

  async count(): Promise<number> {
    return this.users.countDocuments({});
  }

  async list(query: UserListQuery = {}): Promise<UserAccount[]> {
    const text = query.text ? usernameKey(query.text) : "";
    const offset = Math.max(0, Math.trunc(query.offset ?? 0));
    const limit = Math.min(
      USER_LIST_MAX_LIMIT,
      Math.max(1, Math.trunc(query.limit ?? USER_LIST_DEFAULT_LIMIT)),
    );
    const filter = text === "" ? {} : { usernameKey: { $regex: escapeRegex(text) } };
    const docs = await this.users
      .find(filter)
      .sort({ usernameKey: 1, _id: 1 })
      .skip(offset)
      .limit(limit)
      .toArray();
    return docs.map((d) => toAccount(d) as UserAccount);
  }
}

/** The stored fields of an address: as given, and its key (the port's rule: lower-cased). */
function emailFields(email: string): Pick<UserDocument, "email" | "emailKey"> {
  return { email, emailKey: email.toLowerCase() };
}

/** CONFLICT naming what is taken for a duplicate key (the e-mail index, else a username one); else `e`. */
function takenOr(e: unknown): unknown {
  if (!isDuplicateKey(e)) return e;
  const what = e.keyPattern?.emailKey === undefined ? "Username" : "E-mail address";
  return new PlatformError("CONFLICT", `${what} is already taken`, { cause: e });
}

function toAccount(doc: UserDocument | null): UserAccount | undefined {
  return doc ? userAccountFrom(doc._id, doc) : undefined;
}

function escapeRegex(s: string): string {
  return s.replace(/[$()*+.?[\\\]^{|}]/g, "\\$&");
}
