import { hostname, userInfo } from "node:os";
import { Clock } from "@keyward/core/ports";
import { type CliCommand, CliFailure, CliUsageError, EXIT_OK } from "../command-line/cli-command.js";
import { loadHostConfig } from "../host-config.js";
import { checkNewAdministrator, createAdministrator, systemActor } from "../serve/first-administrator.js";
import { buildServePlatform } from "../serve/serve-platform.js";
import { serveStore } from "../serve/serve-store.js";

/** The audit principal of an administrator made by the local command. */
const ADMIN_CREATE_ACTOR = "system:admin-create";

/**
 * `platform admin create <username> --config <file>`: creates an administrator locally, writing to
 * the store the configuration names (as `platform serve` would run it), never through the remote
 * admin API: the way to the first administrator for an operator who holds the configuration and its
 * secrets (the other is the setup token). Refused when the configuration keeps its users in memory
 * (they would die with this process). Audited as `user.created` by `system:admin-create`, with the
 * operator's login name and host.
 */
export const adminCreateCommand: CliCommand = {
  name: ["admin", "create"],
  summary: "Create an administrator in the configuration's store (local; asks for the password)",
  args: "<username>",
  options: [
    { name: "config", value: "<file>", description: "Host configuration module (required)" },
    { name: "password-stdin", description: "Read the password from the first line of standard input" },
    {
      name: "email",
      value: "<address>",
      description:
        "The administrator's e-mail address (needed for the mailed sign-in code with SMTP delivery)",
    },
  ],
  async run({ options, positionals, io, json }) {
    if (positionals.length !== 1) throw new CliUsageError("admin create needs exactly one <username>");
    if (typeof options.config !== "string") throw new CliUsageError("admin create needs --config <file>");
    const store = serveStore(await loadHostConfig(options.config), io.env);
    const { host } = store;
    const replacesStores = host.plugins?.length || host.overrides || host.register;
    if (!store.mongo && !replacesStores) {
      throw new CliFailure(
        "The configuration keeps its users in memory: an account made here would die with this command. Configure platform.mongo.uri, or use the setup token `platform serve` prints",
        "STORE_IN_MEMORY",
      );
    }
    const password = await io.readLine(
      options["password-stdin"] ? "" : "Password for the new administrator: ",
      {
        secret: true,
      },
    );
    if (!password) throw new CliFailure("No password entered", "USAGE_MISSING_PASSWORD");
    // Refused before the store is opened: a wrong name or password costs no start.
    const { username, email } = checkNewAdministrator(positionals[0], password, options.email);
    const served = await buildServePlatform(host, io.env);
    try {
      const operator = `${loginName()}@${hostname()}`;
      const actor = systemActor(ADMIN_CREATE_ACTOR, served.platform.resolve(Clock).now());
      const created = await createAdministrator(served.platform, {
        username,
        password,
        email,
        actor,
        audit: { operator },
      });
      const user = { id: created.id, username: created.username, authorities: created.authorities };
      if (json) io.out(JSON.stringify({ ok: true, user }));
      else
        io.out(
          `Created administrator ${created.username} (${created.id}); audited as user.created by ${ADMIN_CREATE_ACTOR} (${operator}).`,
        );
      return EXIT_OK;
    } finally {
      await served.platform.stop();
    }
  },
};

function loginName(): string {
  try {
    return userInfo().username;
  } catch {
    return "unknown";
  }
}
