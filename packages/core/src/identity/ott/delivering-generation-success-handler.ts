import type { AuditEvent, AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import type { Logger } from "../../kernel/logger.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { correlated } from "../events/correlated.js";
import type { OneTimeTokenDelivery } from "./one-time-token-delivery.js";
import {
  type OneTimeTokenGenerationSuccessHandler,
  writeGenerationAnswer,
} from "./one-time-token-generation-success-handler.js";
import type { OneTimeToken } from "./one-time-token-service.js";

/** Options of the DeliveringGenerationSuccessHandler. */
export interface DeliveringGenerationSuccessHandlerOptions {
  /** Sends the token. */
  delivery: OneTimeTokenDelivery;
  /** The magic link of a token (see `magicLinkFor`). */
  linkFor: (token: OneTimeToken) => string;
  /** Where the answer points the user (the submit page). */
  submitPageUrl: string;
  /** Stamps `at` of each message. */
  clock: Clock;
  /** Receives `auth.ott.delivery-failed` (never the token). */
  audit: AuditSink;
  /** Also told about failed deliveries, when given. */
  logger?: Logger;
  /** The message's `channel`. Default `email`. */
  channel?: string;
}

/**
 * The default generation success handler. It hands the token to the OneTimeTokenDelivery port, addressed
 * to the token's username (`to` = username; a host maps usernames to addresses in its own delivery), and
 * answers with `writeGenerationAnswer`; `acknowledge` answers the same without delivering.
 *
 * Delivery runs after the answer, in the background: otherwise the time an SMTP server or a file append
 * takes would tell a client which usernames have accounts. A failed delivery therefore cannot change
 * the answer; it is audited (`auth.ott.delivery-failed`) and logged, and the user simply asks again.
 * `whenIdle()` waits for deliveries under way (tests, orderly shutdown).
 */
export class DeliveringGenerationSuccessHandler implements OneTimeTokenGenerationSuccessHandler {
  private readonly pending = new Set<Promise<void>>();
  private readonly channel: string;

  constructor(private readonly options: DeliveringGenerationSuccessHandlerOptions) {
    this.channel = options.channel ?? "email";
  }

  async handle(exchange: HttpExchange, token: OneTimeToken): Promise<void> {
    const o = this.options;
    const message = {
      username: token.username,
      to: token.username,
      token: token.getTokenValue(),
      link: o.linkFor(token),
      channel: this.channel,
      at: o.clock.now(),
    };
    const origin = { remoteAddress: exchange.remoteAddress, ...correlated(exchange) };
    const delivery = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => o.delivery.deliver(message))
      .catch((error: unknown) => this.failed(token.username, origin, error));
    this.pending.add(delivery);
    void delivery.finally(() => this.pending.delete(delivery));
    writeGenerationAnswer(exchange, o.submitPageUrl);
  }

  async acknowledge(exchange: HttpExchange): Promise<void> {
    writeGenerationAnswer(exchange, this.options.submitPageUrl);
  }

  /** Resolves once every delivery started so far has finished (successfully or not). */
  async whenIdle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private failed(
    username: string,
    origin: Pick<AuditEvent, "remoteAddress" | "correlationId">,
    error: unknown,
  ): void {
    const reason = isPlatformError(error) ? error.code : "INTERNAL_ERROR";
    try {
      this.options.audit.record({
        type: "auth.ott.delivery-failed",
        outcome: "failure",
        ...origin,
        principal: username,
        data: { channel: this.channel, reason },
      });
      this.options.logger?.error("One-time token delivery failed", {
        username,
        channel: this.channel,
        reason,
        cause: describeCause(error),
      });
    } catch {
      // A broken sink or logger must not turn into an unhandled rejection.
    }
  }
}

/** The most specific message of an error: its cause's, when it wraps one. */
function describeCause(error: unknown): string {
  const inner = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return inner instanceof Error ? inner.message : String(inner);
}
