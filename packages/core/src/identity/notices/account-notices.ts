import type { InjectionToken } from "tsyringe";
import type { Clock } from "../../kernel/clock.js";
import type { Logger } from "../../kernel/logger.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { OneTimeTokenDelivery } from "../ott/one-time-token-delivery.js";

/** The delivery channel of an account notice (a message without a token). */
export const ACCOUNT_NOTICE_CHANNEL = "account-notice";

/** Where a notice's link points: the signed-in user's account page. */
export const ACCOUNT_PAGE_PATH = "/account";

/** One thing a user is told about their account's security. */
export interface AccountNotice {
  /** The account's canonical username (the delivery addresses it: its e-mail when it has one). */
  readonly username: string;
  /** A stable name of what happened (`recovery-code-used`, `factors-reset`, `email-changed`), for logs. */
  readonly kind: string;
  /** One sentence the user reads; never a secret (no code, token or full address). */
  readonly text: string;
}

/**
 * Tells users about changes to their account's security (a recovery code used, factors reset by an
 * administrator, a new e-mail address) through the delivery port, channel `account-notice`, with a
 * link to the account page and no token. Sending never delays or fails the request that caused it:
 * the delivery runs after the caller's answer and a failure is logged by its code only.
 */
export interface AccountNotices {
  send(notice: AccountNotice): void;
}

/** DI token of the AccountNotices service (registered by identityPlugin; a host may replace it). */
export const AccountNotices: InjectionToken<AccountNotices> = Symbol.for("platform.AccountNotices");

/** What {@link deliveredAccountNotices} reads. */
export interface DeliveredAccountNoticesOptions {
  /** The addressed delivery (`addressedDelivery`: the account's e-mail when it has one). */
  delivery: OneTimeTokenDelivery;
  clock: Clock;
  logger: Logger;
  /** The platform's public URL (`publicUrlOf`), read at each notice. */
  publicUrl: () => string;
}

/** The default AccountNotices: one message per notice through the delivery port, off the request path. */
export function deliveredAccountNotices(o: DeliveredAccountNoticesOptions): AccountNotices {
  return {
    send(notice) {
      const message = {
        username: notice.username,
        to: notice.username,
        token: "",
        link: `${o.publicUrl()}${ACCOUNT_PAGE_PATH}`,
        channel: ACCOUNT_NOTICE_CHANNEL,
        notice: notice.text,
        at: o.clock.now(),
      };
      setImmediate(() => {
        o.delivery.deliver(message).catch((error: unknown) => {
          o.logger.warn("account notice not delivered", {
            kind: notice.kind,
            error: isPlatformError(error) ? error.code : "UNKNOWN",
          });
        });
      });
    },
  };
}
