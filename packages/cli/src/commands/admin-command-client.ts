import type { CommandInput } from "../command-line/cli-command.js";
import { AdminClient } from "../remote/admin-client.js";
import { CredentialsFile, credentialsPath } from "../remote/credentials-file.js";

/** The admin client of a command: the `--url` server, else the last one logged in to. */
export function adminClient(input: CommandInput): AdminClient {
  const url = typeof input.options.url === "string" ? input.options.url : undefined;
  return new AdminClient({ credentials: new CredentialsFile(credentialsPath(input.io.env)), url });
}
