import type { InjectionToken } from "tsyringe";
import type { NewUserAccount, UserAccount } from "./user-account.js";

/**
 * Where user accounts live. Usernames are looked up case-insensitively after NFKC normalisation and
 * trimming (see `usernameKey`): `Alice`, ` alice ` and `ＡＬＩＣＥ` name the same account. A new or
 * changed name must pass `checkNewUsername` (RFC 8265, UTS #39) and is unique by `usernameKey` and by
 * `usernameSkeleton`, so lookalikes (`admın` beside `admin`) cannot both exist. An account's `email`,
 * when set, is stored as given (the admin API checks and canonicalises it first; a host's repository
 * brings its own) and is unique by the address lower-cased (`toLowerCase`, locale-independent). Every
 * method returns copies: mutating a returned account changes nothing stored.
 */
export interface UserRepository {
  /** The account whose username matches `username` (case-insensitive, NFKC, trimmed), if any. */
  findByUsername(username: string): Promise<UserAccount | undefined>;
  /** The account with this id, if any. */
  findById(id: string): Promise<UserAccount | undefined>;
  /**
   * Stores a new account with an id from the IdGenerator, version 1 and `createdAt` from the Clock.
   * Throws PlatformError `CONFLICT` when the username's key or skeleton, or the e-mail address, is
   * taken, `VALIDATION_FAILED` when `checkNewUsername` refuses the name.
   */
  create(input: NewUserAccount): Promise<UserAccount>;
  /**
   * Compare-and-set: stores `account` only if the stored version still equals `account.version`,
   * and returns it with the version bumped by one. `id` and `createdAt` are kept from the store.
   * A username equal to the stored one is kept unchecked (a name stored before the username rule stays
   * updatable); a changed one must pass `checkNewUsername`. Throws `CONFLICT` on a stale version or
   * when a changed username's key or skeleton, or the address, belongs to another account (an account
   * without `email` frees its old address), `NOT_FOUND` when no account
   * has this id, `VALIDATION_FAILED` when the changed name is refused.
   */
  update(account: UserAccount): Promise<UserAccount>;
  /** Removes the account; true if it existed. Its username becomes free again. */
  delete(id: string): Promise<boolean>;
  /** How many accounts are stored. */
  count(): Promise<number>;
  /**
   * A page of accounts ordered by username key (then id), optionally only those whose username key
   * contains `text` (matched as `usernameKey(text)`, so case and width do not matter). `limit`
   * defaults to 50 and is capped at 500; `offset` defaults to 0.
   */
  list(query?: UserListQuery): Promise<UserAccount[]>;
}

/** What `UserRepository.list` filters and pages by. */
export interface UserListQuery {
  /** Substring of the username (case-insensitive, NFKC); empty or absent: every account. */
  text?: string | undefined;
  /** Accounts to skip (default 0). */
  offset?: number | undefined;
  /** Page size (default 50, at most 500). */
  limit?: number | undefined;
}

/** Default and largest page size of `UserRepository.list`. */
export const USER_LIST_DEFAULT_LIMIT = 50;
/** Largest page `UserRepository.list` returns. */
export const USER_LIST_MAX_LIMIT = 500;

/** DI token of the UserRepository port. */
export const UserRepository: InjectionToken<UserRepository> = Symbol.for("platform.UserRepository");
