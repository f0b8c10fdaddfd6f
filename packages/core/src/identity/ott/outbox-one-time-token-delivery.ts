import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { PlatformError } from "../../kernel/platform-error.js";
import type { OneTimeTokenDelivery, OneTimeTokenMessage } from "./one-time-token-delivery.js";

/** Default of `OutboxOneTimeTokenDeliveryOptions.file`. */
export const DEFAULT_OTT_OUTBOX_FILE = ".platform/outbox.jsonl";

/** Options of the OutboxOneTimeTokenDelivery. */
export interface OutboxOneTimeTokenDeliveryOptions {
  /** The JSON Lines file, relative to the working directory or absolute. Default `.platform/outbox.jsonl`. */
  file?: string;
}

/**
 * A development and test delivery: appends one JSON line `{at, channel, to, username, token, link}` per
 * token to a file (created with its directories, mode 0600 since it holds live credentials). Appends
 * are serialised through one promise chain, so concurrent deliveries never interleave within a line;
 * a failed append does not block the next one. Per process: two processes sharing the file rely on
 * O_APPEND of lines this short. Errors surface as PlatformError `DELIVERY_FAILED` with `cause` set.
 */
export class OutboxOneTimeTokenDelivery implements OneTimeTokenDelivery {
  /** The file lines are appended to. */
  readonly file: string;
  private tail: Promise<void> = Promise.resolve();

  constructor(options: OutboxOneTimeTokenDeliveryOptions = {}) {
    this.file = options.file ?? DEFAULT_OTT_OUTBOX_FILE;
  }

  deliver(message: OneTimeTokenMessage): Promise<void> {
    const line = `${JSON.stringify({
      at: message.at,
      channel: message.channel,
      to: message.to,
      username: message.username,
      token: message.token,
      link: message.link,
      // An account notice's sentence (no secret in it): the outbox shows what a mail would say.
      ...(message.notice === undefined ? {} : { notice: message.notice }),
    })}\n`;
    const write = this.tail.then(() => this.append(line));
    this.tail = write.catch(() => undefined);
    return write;
  }

  private async append(line: string): Promise<void> {
    try {
      await mkdir(dirname(this.file), { recursive: true });
      await appendFile(this.file, line, { encoding: "utf8", mode: 0o600 });
    } catch (cause) {
      throw new PlatformError("DELIVERY_FAILED", "Could not write the one-time token outbox", {
        cause,
      });
    }
  }
}
