import type { Platform } from "@keyward/core";
import { Clock, KeyStore, UserRepository } from "@keyward/core/ports";
import { anyAdministrator } from "./first-administrator.js";
import { SETUP_PATH } from "../demo-security.js";
import { type SetupTokenIssue, SetupTokens } from "./setup-tokens.js";

/**
 * At `platform serve`'s start: against an empty user store, the store's setup token (made now by
 * this instance, or live from another one), else nothing. Returns the issue so the caller prints
 * it once, to the console only: the token never goes to the log sink.
 */
export async function setupTokenAtStart(
  platform: Platform,
): Promise<SetupTokenIssue | "no-administrator" | undefined> {
  const users = platform.resolve(UserRepository);
  if ((await users.count()) > 0) return (await anyAdministrator(users)) ? undefined : "no-administrator";
  const clock = platform.resolve(Clock);
  return new SetupTokens({ store: platform.resolve(KeyStore), now: () => clock.now() }).issue();
}

/** The console lines that say how to create the first administrator (the token itself only when this start made it). */
export function setupLines(issue: SetupTokenIssue | "no-administrator" | undefined, url: string): string[] {
  if (issue === undefined) return [];
  if (issue === "no-administrator") {
    return [
      "  No administrator in the store: create one with `platform admin create <username> --config <file>`",
    ];
  }
  const until = new Date(issue.expiresAt).toISOString();
  if (issue.kind === "live") {
    return [
      `  First administrator: a setup token is live until ${until}; the instance that made it printed it. After that time, restart for a new one, or run \`platform admin create\`.`,
    ];
  }
  return [
    `  First administrator: open ${url}${SETUP_PATH} and enter this one-time setup token (single use, valid until ${until}; printed only here):`,
    `    ${issue.token}`,
  ];
}
