import { confusableSkeleton, usernameCaseMapped } from "./unicode/index.js";

/**
 * The stored, display form of a username: NFKC-normalised (so a full-width `ａｌｉｃｅ` becomes
 * `alice`) and trimmed (after normalisation, which can turn exotic spaces into plain ones). Case is kept.
 */
export function normalizeUsername(username: string): string {
  return username.normalize("NFKC").trim();
}

/**
 * The key usernames are looked up by: NFKC, lower case (locale-independent `toLowerCase`), NFKC
 * again (lower-casing may leave a string not in NFKC), trimmed. Idempotent. Every UserRepository
 * adapter finds accounts by this key (MongoDB stores it in a uniquely indexed field) rather than by a
 * database collation, so all adapters agree on which name signs in to which account. Unchanged since
 * accounts were first stored, so every existing account is found as before.
 */
export function usernameKey(username: string): string {
  return username.normalize("NFKC").toLowerCase().normalize("NFKC").trim();
}

/**
 * The key new usernames are kept unique by: the UTS #39 confusable skeleton of the name's PRECIS
 * UsernameCaseMapped form (RFC 8265), taken of its display form. Names that look alike (`admin`,
 * `Admin`, `аdmin` with a Cyrillic а, `admın`, `adrnin`) share it, so only one of them can be created.
 * Defined for any string (an old stored name too), so a database can be back-filled with it.
 */
export function usernameSkeleton(username: string): string {
  return confusableSkeleton(usernameCaseMapped(normalizeUsername(username)).form);
}
