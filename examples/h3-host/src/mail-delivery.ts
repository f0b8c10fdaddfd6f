import { PlatformError } from "@keyward/core/errors";
import type { OneTimeTokenDelivery, OneTimeTokenMessage } from "@keyward/core/ports";

/** One e-mail. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** How this service sends e-mail (an SMTP client in production; the test keeps what it is given). */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * The platform's OneTimeTokenDelivery over the service's Mailer. The platform addresses each message
 * first: `to` is the account's `email` (HostUsers hands it out), else its username. A failure to send
 * becomes DELIVERY_FAILED with the mailer's error as its cause (the port's rule: no transport error
 * reaches the platform, which would answer it with a 500).
 */
export class MailDelivery implements OneTimeTokenDelivery {
  constructor(private readonly mailer: Mailer) {}

  async deliver(message: OneTimeTokenMessage): Promise<void> {
    try {
      await this.mailer.send(mailFor(message));
    } catch (cause) {
      throw new PlatformError("DELIVERY_FAILED", "The mail could not be sent", { cause });
    }
  }
}

/** The text of each kind of message: a code to type, or a link to open. */
function mailFor(m: OneTimeTokenMessage): Mail {
  if (m.channel === "mfa-code")
    return { to: m.to, subject: "Your sign-in code", text: `Your sign-in code is ${m.token}.` };
  if (m.channel === "password-reset")
    return { to: m.to, subject: "Reset your password", text: `Choose a new password: ${m.link}` };
  return { to: m.to, subject: "Your sign-in link", text: `Sign in: ${m.link}` };
}
