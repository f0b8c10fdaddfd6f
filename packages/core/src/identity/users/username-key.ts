/**
 * The stored, display form of a username: NFKC-normalised (so a full-width `ａｌｉｃｅ` becomes
 * `alice`) and trimmed (after normalisation, which can turn exotic spaces into plain ones). Case is kept.
 */
export function normalizeUsername(username: string): string {
  return username.normalize("NFKC").trim();
}

/**
 * The key usernames are matched and kept unique by: NFKC, lower case (locale-independent
 * `toLowerCase`), NFKC again (lower-casing may leave a string not in NFKC), trimmed. Idempotent.
 * Every UserRepository adapter matches by this key (MongoDB stores it in a uniquely indexed field)
 * rather than by a database collation, so all adapters agree on which names collide.
 */
export function usernameKey(username: string): string {
  return username.normalize("NFKC").toLowerCase().normalize("NFKC").trim();
}
