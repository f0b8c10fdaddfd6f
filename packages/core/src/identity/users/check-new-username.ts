import { PlatformError } from "../../kernel/platform-error.js";
import { normalizeUsername, usernameKey } from "./username-key.js";

/**
 * The username a UserRepository stores for `raw` on create and update: `raw` normalised by
 * `normalizeUsername`. Throws VALIDATION_FAILED when `raw` is not a string or nothing is left of it or
 * of its key. Every adapter runs this one rule, so all of them refuse the same names.
 */
export function checkNewUsername(raw: string): string {
  const username = typeof raw === "string" ? normalizeUsername(raw) : "";
  if (username === "" || usernameKey(username) === "") {
    throw new PlatformError("VALIDATION_FAILED", "Username must not be empty");
  }
  return username;
}
