import { CliFailure } from "../command-line/cli-command.js";
import { serverText } from "../command-line/terminal-text.js";

/**
 * `${origin}${path}` when `path` is an absolute path on that same server: one leading `/` (not
 * `//` or `/\`, which browsers and URL parsers read as another host), no scheme, no whitespace or
 * control characters (URL parsers drop tabs and newlines, which would turn `/\t/evil` into
 * `//evil`), and the URL built from it still on `origin`. Anything else is SERVER_PATH_REFUSED: a
 * path a server's answer names (the MFA `verifyOtt` endpoint, a held sign-in's `statusUrl`) must not
 * send the code, the binding or a token anywhere else.
 */
export function sameOriginUrl(origin: string, path: unknown): string {
  const refuse = (why: string) =>
    new CliFailure(
      `The server named a path the command does not follow (${why}): ${serverText(String(path)).slice(0, 200)}`,
      "SERVER_PATH_REFUSED",
    );
  if (typeof path !== "string") throw refuse("not a string");
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\"))
    throw refuse("not a single leading /");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what is refused.
  if (/[\s\u0000-\u001f\u007f-\u009f\\]/.test(path)) throw refuse("whitespace, a control or a backslash");
  let url: URL;
  try {
    url = new URL(`${origin}${path}`);
  } catch {
    throw refuse("not a URL");
  }
  if (url.origin !== origin) throw refuse("another origin");
  return url.href;
}
