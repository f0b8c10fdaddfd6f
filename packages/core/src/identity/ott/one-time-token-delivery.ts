import type { InjectionToken } from "tsyringe";

/** One token to send: who it signs in, where it goes, the secret and the link that carries it. */
export interface OneTimeTokenMessage {
  /** The canonical username of the account the token signs in. */
  username: string;
  /**
   * The user's address on `channel`. The built-in handler sends the username: a host that knows
   * e-mail addresses or phone numbers maps the username to one inside its own delivery.
   */
  to: string;
  /** The token value (a secret: whoever reads it can sign in as `username` until it expires). */
  token: string;
  /** The magic link: the submit page with `?token=`; opening it never signs in by itself. */
  link: string;
  /** How the token travels, e.g. `email` or `sms`; the built-in handler says `email`. */
  channel: string;
  /** When the token was handed over (epoch milliseconds). */
  at: number;
  /**
   * Channel `account-notice` only: what happened to the account, one sentence for the user (the
   * token is then empty and the link the account page). Never a secret.
   */
  notice?: string;
}

/**
 * Sends a one-time token to its user (e-mail, SMS, a dev outbox). Read by the generation success
 * handler; adapters translate their transport's errors into a PlatformError with `cause` set.
 */
export interface OneTimeTokenDelivery {
  deliver(message: OneTimeTokenMessage): Promise<void>;
}

/** DI token of the OneTimeTokenDelivery port. */
export const OneTimeTokenDelivery: InjectionToken<OneTimeTokenDelivery> = Symbol.for(
  "platform.OneTimeTokenDelivery",
);
