import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { envNameOf } from "@keyward/core";
import { CliFailure, type OptionSpec } from "../command-line/cli-command.js";
import { DEMO_KEK_FILE } from "../demo-store.js";

/** The key-encryption key's property. */
export const KEK_KEY = "platform.keys.encryption-key";

/** The `--key-file` option of the local commands that open the sealed keys (break-glass, keys). */
export const KEY_FILE_OPTION: OptionSpec = {
  name: "key-file",
  value: "<file>",
  description: `The key-encryption key, when $${envNameOf(KEK_KEY)} is not set (default ${DEMO_KEK_FILE})`,
};

/**
 * The key-encryption key an operator holds: `PLATFORM_KEYS_ENCRYPTION_KEY`, else the first line of
 * `keyFile` (default `.platform/key-encryption-key`). A missing key fails with
 * KEY_ENCRYPTION_KEY_MISSING, naming the file, never its content.
 */
export function operatorKeyEncryptionKey(env: Record<string, string | undefined>, keyFile: unknown): string {
  const fromEnv = env[envNameOf(KEK_KEY)];
  if (fromEnv) return fromEnv;
  const file = typeof keyFile === "string" && keyFile !== "" ? keyFile : DEMO_KEK_FILE;
  try {
    const key = readFileSync(resolve(file), "utf8").trim();
    if (key !== "") return key;
  } catch {
    // Reported below, without the file's content.
  }
  throw new CliFailure(
    `No key-encryption key: set ${envNameOf(KEK_KEY)} or pass --key-file (${file} could not be read)`,
    "KEY_ENCRYPTION_KEY_MISSING",
  );
}
