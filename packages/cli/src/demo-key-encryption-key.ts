import { randomBytes } from "node:crypto";
import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname } from "node:path";
import { PlatformError } from "@keyward/core/errors";

/** A new random key-encryption key, in memory only (`base64url:` and 32 random bytes). */
export function newDemoKeyEncryptionKey(): string {
  return `base64url:${randomBytes(32).toString("base64url")}`;
}

/**
 * The key in `file`, or undefined when there is none (no file, or an empty one). A key file other
 * users may read is refused, as ssh refuses such a private key.
 */
export function readDemoKeyEncryptionKey(file: string): string | undefined {
  let key: string;
  try {
    key = readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return undefined;
    throw error;
  }
  if (key === "") return undefined;
  refuseShared(file);
  return key;
}

/**
 * Refuses, before anything starts, a key file that could not be written once the start succeeded:
 * the nearest existing directory on its path must be writable. Reads only; writes nothing.
 */
export function assertDemoKeyFileWritable(file: string): void {
  let dir = dirname(file);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  try {
    accessSync(dir, constants.W_OK);
  } catch (cause) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `${file} cannot be written (${dir} is not writable): the generated key-encryption key could not be kept; set platform.keys.encryption-key or start where .platform/ can be written`,
      { cause },
    );
  }
}

/**
 * Writes `key` to `file` (created exclusively, owner read/write only), once the start it was made for
 * has succeeded. A file another start wrote meanwhile is kept: the same key is fine, another one is a
 * CONFIGURATION_INVALID error (this start's keys are sealed under its own).
 */
export function saveDemoKeyEncryptionKey(file: string, key: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as { code?: unknown }).code !== "EEXIST") throw error;
    if (readDemoKeyEncryptionKey(file) === key) return;
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `${file} was written by another start with another key while this one started: stop both, keep the file whose key sealed the database's keys`,
    );
  }
  // The umask may have narrowed the mode further, never widened it; make it exactly 0600.
  chmodSync(file, 0o600);
}

function refuseShared(file: string): void {
  if (process.platform === "win32") return;
  if ((statSync(file).mode & 0o077) !== 0) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `${file} may be read by other users: chmod 600 it (it unlocks the database's keys)`,
    );
  }
}
