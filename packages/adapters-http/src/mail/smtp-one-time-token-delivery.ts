import { PlatformError } from "@keyward/core/errors";
import type { OneTimeTokenDelivery, OneTimeTokenMessage } from "@keyward/core/ports";
import { createTransport, type Transporter } from "nodemailer";
import { checkSmtpSettings, type SmtpSettings } from "./mail-properties.js";
import { hasControlCharacter, mailboxAddressProblem } from "./mailbox-address.js";
import { defaultMailTemplates, type MailTemplates } from "./mail-templates.js";

/** Options of the SmtpOneTimeTokenDelivery. */
export interface SmtpOneTimeTokenDeliveryOptions {
  /** Where and how to send (see `smtpSettingsFromProperties`). */
  smtp: SmtpSettings;
  /** Subject, text and HTML of each message. Default `defaultMailTemplates`. */
  templates?: MailTemplates;
}

/**
 * A OneTimeTokenDelivery that mails each token through an SMTP server (nodemailer), one connection per
 * message, rendered by the MailTemplates. It sends only to one plain address (`mailboxAddressProblem`:
 * an account without an e-mail address, whose `to` is its username, gets nothing) and only a subject
 * without line breaks, so no header or SMTP command can be injected; the envelope is set explicitly.
 * Every failure (refused address, unreachable or refusing server, timeout) becomes PlatformError
 * `DELIVERY_FAILED` whose cause names the transport's error with the token, the link, the recipient
 * and the password taken out: the callers log and audit it, and a sign-in answers the same either way.
 */
export class SmtpOneTimeTokenDelivery implements OneTimeTokenDelivery {
  private readonly transport: Transporter;
  private readonly templates: MailTemplates;

  constructor(private readonly options: SmtpOneTimeTokenDeliveryOptions) {
    const smtp = checkSmtpSettings(options.smtp);
    this.templates = options.templates ?? defaultMailTemplates;
    this.transport = createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.security === "tls",
      requireTLS: smtp.security === "starttls",
      ignoreTLS: smtp.security === "none",
      ...(smtp.user === "" ? {} : { auth: { user: smtp.user, pass: smtp.password } }),
      connectionTimeout: smtp.connectTimeoutMs,
      greetingTimeout: smtp.connectTimeoutMs,
      dnsTimeout: smtp.connectTimeoutMs,
      socketTimeout: smtp.sendTimeoutMs,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
  }

  async deliver(message: OneTimeTokenMessage): Promise<void> {
    const problem = mailboxAddressProblem(message.to);
    if (problem !== undefined) throw refused(`the recipient ${problem}`);
    const content = this.templates.render(message);
    if (hasControlCharacter(content.subject)) throw refused("the subject holds a line break or control");
    const from = this.options.smtp.from;
    try {
      await this.transport.sendMail({
        envelope: { from, to: [message.to] },
        from,
        to: message.to,
        subject: content.subject,
        text: content.text,
        html: content.html,
        disableFileAccess: true,
        disableUrlAccess: true,
      });
    } catch (error) {
      throw new PlatformError("DELIVERY_FAILED", "SMTP delivery failed", {
        cause: new Error(this.redacted(error, message)),
      });
    }
  }

  /** Closes the transport's connections (none stay open between messages; for an orderly stop). */
  close(): void {
    this.transport.close();
  }

  // The transport's code and message, without anything secret or personal a server may have echoed.
  private redacted(error: unknown, message: OneTimeTokenMessage): string {
    const e = error as { code?: unknown; responseCode?: unknown; message?: unknown };
    let text = `${typeof e.code === "string" ? e.code : "SMTP"}${typeof e.responseCode === "number" ? ` ${e.responseCode}` : ""}: ${String(e.message ?? error)}`;
    const secrets = [message.link, message.token, message.to, this.options.smtp.password];
    for (const secret of secrets) if (secret !== "") text = withoutText(text, secret);
    return text.slice(0, 500);
  }
}

function refused(reason: string): PlatformError {
  return new PlatformError("DELIVERY_FAILED", `SMTP delivery refused: ${reason}`);
}

/**
 * `text` with every occurrence of `secret` replaced by `[redacted]`, in any letter case: a server
 * echoes an address lower-cased (`550 5.1.1 <erin.x@example.com>`). Plain index search, no pattern.
 */
function withoutText(text: string, secret: string): string {
  const lowerText = text.toLowerCase();
  const lowerSecret = secret.toLowerCase();
  // Case folding that changes lengths (rare outside ASCII) falls back to the exact match.
  if (lowerText.length !== text.length || lowerSecret.length !== secret.length) {
    return text.split(secret).join("[redacted]");
  }
  let out = "";
  let from = 0;
  for (let at = lowerText.indexOf(lowerSecret); at !== -1; at = lowerText.indexOf(lowerSecret, from)) {
    out += `${text.slice(from, at)}[redacted]`;
    from = at + secret.length;
  }
  return out + text.slice(from);
}
