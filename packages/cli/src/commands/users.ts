import type { NewUserBody, UserJson } from "@keyward/core/wire";
import {
  type CliCommand,
  CliFailure,
  CliUsageError,
  type CommandInput,
  EXIT_OK,
} from "../command-line/cli-command.js";
import { serverText } from "../command-line/terminal-text.js";
import { AdminClient } from "../remote/admin-client.js";
import { CredentialsFile, credentialsPath } from "../remote/credentials-file.js";

const URL_OPTION = {
  name: "url",
  value: "<server>",
  description: "The server (default: the last one you logged in to)",
};
const BASE = "/admin/api/users";

function client(input: CommandInput): AdminClient {
  const url = typeof input.options.url === "string" ? input.options.url : undefined;
  return new AdminClient({ credentials: new CredentialsFile(credentialsPath(input.io.env)), url });
}

function one(input: CommandInput, what: string): string {
  if (input.positionals.length !== 1)
    throw new CliUsageError(`${what} needs exactly one <user> (username or id)`);
  return input.positionals[0]!;
}

/** A user of a server's answer, checked before anything is printed or used (SERVER_ANSWER_INVALID). */
function userOf(body: unknown): UserJson {
  const u = body as Partial<Record<keyof UserJson, unknown>> | null;
  const ok =
    typeof u?.id === "string" &&
    typeof u.username === "string" &&
    Array.isArray(u.authorities) &&
    u.authorities.every((a) => typeof a === "string");
  if (!ok) throw new CliFailure("The server's answer is not a user", "SERVER_ANSWER_INVALID");
  return body as UserJson;
}

/** A list of users of a server's answer, each checked by `userOf`. */
function usersOf(body: unknown): UserJson[] {
  if (!Array.isArray(body))
    throw new CliFailure("The server's answer is not a user list", "SERVER_ANSWER_INVALID");
  return body.map(userOf);
}

// A username or an id: the admin API looks ids up; usernames are found through the list's filter.
async function resolveUser(admin: AdminClient, who: string): Promise<UserJson> {
  const byName = (await admin.call("GET", `${BASE}?q=${encodeURIComponent(who)}&limit=500`)).body;
  const match = usersOf(byName).find((u) => u.username.toLowerCase() === who.trim().toLowerCase());
  if (match) return match;
  if (/^[A-Za-z0-9_-]{1,128}$/.test(who)) {
    try {
      return userOf((await admin.call("GET", `${BASE}/${encodeURIComponent(who)}`)).body);
    } catch (error) {
      if ((error as CliFailure).code !== "NOT_FOUND") throw error;
    }
  }
  throw new CliFailure(`No user ${JSON.stringify(who)}`, "NOT_FOUND");
}

function print(input: CommandInput, user: UserJson, verb: string): number {
  if (input.json) input.io.out(JSON.stringify({ ok: true, user }));
  else input.io.out(`${verb} ${user.username} (${user.id}): ${describe(user)}`);
  return EXIT_OK;
}

function describe(u: UserJson): string {
  const flags = [
    u.enabled ? "enabled" : "DISABLED",
    ...(u.locked ? ["LOCKED"] : []),
    ...(u.hasPassword ? [] : ["no password"]),
  ];
  const email = typeof u.email === "string" ? `; ${serverText(u.email)}` : "";
  return `${u.authorities.join(",") || "-"}; ${flags.join(", ")}${email}`;
}

/** An action on one user: `platform users disable|enable|unlock <user>`. */
function actionCommand(action: "disable" | "enable" | "unlock", summary: string, verb: string): CliCommand {
  return {
    name: ["users", action],
    summary,
    args: "<user>",
    options: [URL_OPTION],
    async run(input) {
      const admin = client(input);
      const user = await resolveUser(admin, one(input, `users ${action}`));
      const answer = await admin.call("POST", `${BASE}/${encodeURIComponent(user.id)}/${action}`);
      return print(input, userOf(answer.body), verb);
    },
  };
}

/** `platform users list | add | disable | enable | unlock | reset-factors | reset-password`, through the admin API. */
export const usersCommands: readonly CliCommand[] = [
  {
    name: ["users", "list"],
    summary: "List users (ADMIN)",
    options: [
      URL_OPTION,
      { name: "query", value: "<text>", description: "Only usernames containing this text" },
      { name: "limit", value: "<n>", description: "At most this many (1..500, default 50)" },
    ],
    async run(input) {
      if (input.positionals.length > 0)
        throw new CliUsageError(`Unexpected argument: ${input.positionals[0]}`);
      const params = new URLSearchParams();
      if (typeof input.options.query === "string") params.set("q", input.options.query);
      if (typeof input.options.limit === "string") params.set("limit", input.options.limit);
      const query = params.size > 0 ? `?${params}` : "";
      const users = usersOf((await client(input).call("GET", `${BASE}${query}`)).body);
      if (input.json) input.io.out(JSON.stringify({ ok: true, users }));
      else if (users.length === 0) input.io.out("No users.");
      else input.io.out(users.map((u) => `${u.username.padEnd(24)} ${u.id}  ${describe(u)}`).join("\n"));
      return EXIT_OK;
    },
  },
  {
    name: ["users", "add"],
    summary: "Add a user (ADMIN); asks for the password unless --no-password",
    args: "<username>",
    options: [
      URL_OPTION,
      { name: "roles", value: "<list>", description: "Comma-separated authorities (default ROLE_USER)" },
      { name: "admin", description: "Also grant ROLE_ADMIN" },
      { name: "password-stdin", description: "Read the password from the first line of standard input" },
      {
        name: "no-password",
        description: "No password (passkey or magic link only, or send a reset link later)",
      },
      {
        name: "email",
        value: "<address>",
        description: "The user's e-mail address: sign-in links, MFA codes and reset links go to it",
      },
    ],
    async run(input) {
      const username = one(input, "users add");
      const roles =
        typeof input.options.roles === "string"
          ? input.options.roles
              .split(",")
              .map((r) => r.trim())
              .filter(Boolean)
          : ["ROLE_USER"];
      if (input.options.admin && !roles.includes("ROLE_ADMIN")) roles.push("ROLE_ADMIN");
      let password: string | undefined;
      if (!input.options["no-password"]) {
        password = await input.io.readLine(
          input.options["password-stdin"] ? "" : "Password for the new user: ",
          { secret: true },
        );
        if (!password)
          throw new CliFailure("No password entered (use --no-password for none)", "USAGE_MISSING_PASSWORD");
      }
      const email = typeof input.options.email === "string" ? input.options.email : undefined;
      const body: NewUserBody = {
        username,
        authorities: roles,
        ...(password ? { password } : {}),
        ...(email === undefined ? {} : { email }),
      };
      const answer = await client(input).call("POST", BASE, body);
      return print(input, userOf(answer.body), "Added");
    },
  },
  actionCommand("disable", "Disable a user: sign-ins refused, refresh tokens revoked (ADMIN)", "Disabled"),
  actionCommand("enable", "Enable a user again (ADMIN)", "Enabled"),
  actionCommand(
    "unlock",
    "Unlock a user: clears the lock, login throttling and MFA lockouts (ADMIN)",
    "Unlocked",
  ),
  {
    name: ["users", "reset-factors"],
    summary: "Remove a user's authenticator app and recovery codes after a lost phone (ADMIN)",
    args: "<user>",
    options: [URL_OPTION],
    async run(input) {
      const admin = client(input);
      const user = await resolveUser(admin, one(input, "users reset-factors"));
      const answer = await admin.call("POST", `${BASE}/${encodeURIComponent(user.id)}/factors/reset`);
      const body = answer.body as { user?: unknown; removed?: unknown };
      const removed = Array.isArray(body.removed) ? body.removed.filter((t) => typeof t === "string") : [];
      if (input.json) {
        input.io.out(JSON.stringify({ ok: true, user: userOf(body.user), removed }));
        return EXIT_OK;
      }
      const what = removed.length > 0 ? `removed ${removed.map(serverText).join(", ")}` : "nothing to remove";
      input.io.out(`Factors of ${user.username} (${user.id}): ${what}`);
      return EXIT_OK;
    },
  },
  {
    name: ["users", "reset-password"],
    summary: "Set a new password, or mail a single-use reset link with --send-link (ADMIN)",
    args: "<user>",
    options: [
      URL_OPTION,
      { name: "send-link", description: "Mail the user a reset link instead of setting a password" },
      { name: "password-stdin", description: "Read the new password from the first line of standard input" },
    ],
    async run(input) {
      const admin = client(input);
      const user = await resolveUser(admin, one(input, "users reset-password"));
      let body: Record<string, unknown>;
      if (input.options["send-link"]) {
        if (input.options["password-stdin"])
          throw new CliUsageError("Use --send-link or --password-stdin, not both");
        body = { sendLink: true };
      } else {
        const password = await input.io.readLine(
          input.options["password-stdin"] ? "" : `New password for ${user.username}: `,
          { secret: true },
        );
        if (!password) throw new CliFailure("No password entered", "USAGE_MISSING_PASSWORD");
        body = { password };
      }
      const answer = await admin.call("POST", `${BASE}/${encodeURIComponent(user.id)}/reset-password`, body);
      return print(
        input,
        userOf(answer.body),
        input.options["send-link"] ? "Reset link sent to" : "Password set for",
      );
    },
  },
];
