import type { CommandInput } from "../command-line/cli-command.js";
import { AdminClient } from "../remote/admin-client.js";
import { CredentialsFile, credentialsPath } from "../remote/credentials-file.js";

/** The admin client of a command: the `--url` server, else the last one logged in to. */
export function adminClient(input: CommandInput): AdminClient {
  const url = typeof input.options.url === "string" ? input.options.url : undefined;
  return new AdminClient({ credentials: new CredentialsFile(credentialsPath(input.io.env)), url });
}

/**
 * The query string (`?a=1&b=2`, or "") of a list command: each option given as text, sent under
 * the admin API's parameter name (`map`: option → parameter).
 */
export function optionQuery(input: CommandInput, map: Readonly<Record<string, string>>): string {
  const params = new URLSearchParams();
  for (const [option, param] of Object.entries(map)) {
    const value = input.options[option];
    if (typeof value === "string") params.set(param, value);
  }
  return params.size > 0 ? `?${params}` : "";
}
