import { type CliCommand, CliFailure, CliUsageError, EXIT_OK } from "../command-line/cli-command.js";
import { send } from "../remote/admin-client.js";
import { CredentialsFile, credentialsPath, normaliseServerUrl } from "../remote/credentials-file.js";
import { signIn } from "../remote/sign-in.js";

/** `platform login --url <server>`: password (and a mailed code when needed), tokens kept in 0600. */
export const loginCommand: CliCommand = {
  name: ["login"],
  summary: "Sign in to a running server; keeps the tokens in your credentials file (mode 0600)",
  options: [
    { name: "url", value: "<server>", description: "The server, e.g. http://localhost:8080 (required)" },
    { name: "username", value: "<name>", description: "Your username (asked when absent)" },
    { name: "password-stdin", description: "Read the password from the first line of standard input" },
  ],
  async run({ options, io, json }) {
    if (typeof options.url !== "string") throw new CliUsageError("login needs --url <server>");
    const url = normaliseServerUrl(options.url);
    if (url.startsWith("http://") && !isLoopback(url)) {
      io.err(`warning: ${url} is not https: your password and tokens travel in clear text`);
    }
    const username =
      typeof options.username === "string" ? options.username : (await io.readLine("Username: "))?.trim();
    if (!username) throw new CliFailure("No username entered", "USAGE_MISSING_USERNAME");
    const password = await io.readLine(options["password-stdin"] ? "" : "Password: ", { secret: true });
    if (!password) throw new CliFailure("No password entered", "USAGE_MISSING_PASSWORD");
    const credentials = await signIn(io, url, username, password);
    const file = new CredentialsFile(credentialsPath(io.env));
    await file.put(url, credentials);
    if (json) io.out(JSON.stringify({ ok: true, url, username, credentialsFile: file.path }));
    else io.out(`Signed in to ${url} as ${username} (credentials in ${file.path})`);
    return EXIT_OK;
  },
};

/** `platform logout`: revokes the tokens on the server and forgets them. */
export const logoutCommand: CliCommand = {
  name: ["logout"],
  summary: "Sign out: revoke your tokens on the server and forget them",
  options: [
    { name: "url", value: "<server>", description: "The server (default: the last one you logged in to)" },
  ],
  async run({ options, io, json }) {
    const file = new CredentialsFile(credentialsPath(io.env));
    const found = await file.get(typeof options.url === "string" ? options.url : undefined);
    if (!found) throw new CliFailure("Not logged in", "NOT_LOGGED_IN");
    const { url, credentials } = found;
    // Revoke first; forget locally whatever the server says (an expired token is no reason to keep it).
    const answer = await send(
      fetch,
      url,
      "POST",
      "/api/logout",
      { refreshToken: credentials.refreshToken },
      credentials.accessToken,
    ).catch(() => undefined);
    await file.remove(url);
    const revoked = answer !== undefined && answer.status >= 200 && answer.status < 300;
    if (!revoked)
      io.err(
        `warning: the server did not confirm the revocation (${answer ? answer.status : "unreachable"}); the local copy is deleted`,
      );
    if (json) io.out(JSON.stringify({ ok: true, url, revoked }));
    else io.out(`Signed out of ${url}`);
    return EXIT_OK;
  },
};

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "[::1]" || host.startsWith("127.");
}
