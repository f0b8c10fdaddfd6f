import { hostname, userInfo } from "node:os";
import { MONGO_URI, mongoPlugin } from "@keyward/adapters-mongo";
import { createPlatform, envNameOf, identityPlugin, mfaPlugin, zeroTrustPlugin } from "@keyward/core";
import { restoreAdministrator } from "@keyward/core/identity";
import { type CliCommand, CliUsageError, EXIT_OK } from "../command-line/cli-command.js";
import { KEK_KEY, KEY_FILE_OPTION, operatorKeyEncryptionKey } from "../keys/key-encryption-key-option.js";

/**
 * `platform break-glass --mongo-uri <uri> --username <name>`: when no administrator is available (all
 * blocked, locked or disabled), restores one, locally against the store, never over HTTP. It needs
 * what only an operator of the deployment holds: the database and the key-encryption key
 * (`PLATFORM_KEYS_ENCRYPTION_KEY`, else `--key-file`, default `.platform/key-encryption-key`); the
 * platform's start opens the sealed keys with it, so a wrong key stops the command before any change.
 * Audited as `user.break-glass` with the operator's login name and host.
 */
export const breakGlassCommand: CliCommand = {
  name: ["break-glass"],
  summary: "Restore one administrator when none is available (local, needs the database and its key)",
  options: [
    { name: "mongo-uri", value: "<uri>", description: "The store (default: $PLATFORM_MONGO_URI)" },
    { name: "username", value: "<name>", description: "The account to make an available administrator" },
    KEY_FILE_OPTION,
  ],
  async run({ options, positionals, io, json }) {
    if (positionals.length > 0) throw new CliUsageError(`Unexpected argument: ${positionals[0]}`);
    const uri = stringOption(options["mongo-uri"]) ?? io.env[envNameOf(MONGO_URI.key)];
    const username = stringOption(options.username);
    if (!uri)
      throw new CliUsageError("break-glass needs --mongo-uri (or PLATFORM_MONGO_URI): the store to repair");
    if (!username) throw new CliUsageError("break-glass needs --username <name>");
    const key = operatorKeyEncryptionKey(io.env, options["key-file"]);
    const platform = createPlatform({
      env: {},
      properties: { [KEK_KEY]: key },
      plugins: [identityPlugin, mfaPlugin, zeroTrustPlugin, mongoPlugin({ uri })],
    });
    try {
      // A wrong key-encryption key cannot open the sealed keys: the start fails before any change.
      await platform.start();
      const operator = `${safeLogin()}@${hostname()}`;
      const done = await restoreAdministrator(platform.container, { username, operator });
      if (json) io.out(JSON.stringify({ ok: true, ...done }));
      else
        io.out(
          `Restored ${done.username} (${done.userId}) as an available administrator; cleared: ${done.cleared.join(", ") || "nothing"}. Every earlier sign-in of it has ended; audited as user.break-glass.`,
        );
      return EXIT_OK;
    } finally {
      await platform.stop();
    }
  },
};

function stringOption(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function safeLogin(): string {
  try {
    return userInfo().username;
  } catch {
    return "unknown";
  }
}
