import type { OneTimeTokenDelivery, OneTimeTokenMessage } from "./one-time-token-delivery.js";

/** Options of the ConsoleOneTimeTokenDelivery. */
export interface ConsoleOneTimeTokenDeliveryOptions {
  /** Receives one line (with its newline). Default: standard output. */
  write?: (line: string) => void;
}

/**
 * A development delivery: writes one line per token, with the link, to standard output. The link is a
 * live credential, so this belongs on a developer's own console only: never where logs are collected
 * or shared (use a real delivery, or the outbox in a protected directory, anywhere else). Control
 * characters in the username are escaped, so a name cannot forge further log lines.
 */
export class ConsoleOneTimeTokenDelivery implements OneTimeTokenDelivery {
  private readonly write: (line: string) => void;

  constructor(options: ConsoleOneTimeTokenDeliveryOptions = {}) {
    this.write = options.write ?? ((line) => process.stdout.write(line));
  }

  async deliver(message: OneTimeTokenMessage): Promise<void> {
    const who = oneLine(message.username);
    const to = oneLine(message.to);
    this.write(
      `[platform] one-time sign-in link for ${who} (${oneLine(message.channel)} to ${to}): ${oneLine(message.link)}\n`,
    );
  }
}

/** The text with control characters (C0, DEL, C1, line and paragraph separators) as `\u` escapes (four hex digits), on one line. */
function oneLine(text: string): string {
  let out = "";
  for (const c of text) {
    const code = c.charCodeAt(0);
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
    out += control ? `\\u${code.toString(16).padStart(4, "0")}` : c;
  }
  return out;
}
