import type { PlatformPlugin, PlatformProperties } from "@keyward/core";
import { OneTimeTokenDelivery } from "@keyward/core/ports";
import { MAIL_PROPERTIES, smtpSettingsFromProperties } from "./mail-properties.js";
import { defaultMailTemplates, MailTemplates } from "./mail-templates.js";
import { SmtpOneTimeTokenDelivery } from "./smtp-one-time-token-delivery.js";

/** The property that chooses the built-in delivery (the identity module's). */
const OTT_DELIVERY_KEY = "platform.auth.ott.delivery";

/**
 * Real mail: declares `platform.mail.smtp.*` and, when `platform.auth.ott.delivery` is `smtp`,
 * registers the SmtpOneTimeTokenDelivery as the OneTimeTokenDelivery default (so a host's own
 * delivery, registered or overridden, still wins) and MailTemplates' default (`defaultMailTemplates`;
 * override the port to change the mails). The SMTP settings are checked when the platform is created
 * (host and from required), and the transport is closed at stop. `httpPlugin` includes it.
 */
export const mailPlugin: PlatformPlugin = {
  id: "mail",
  properties: MAIL_PROPERTIES,
  register(ctx) {
    if (!smtpChosen(ctx.properties)) return;
    // Read (and checked) now: a missing host or sender stops the platform's creation, not a sign-in.
    const smtp = smtpSettingsFromProperties(ctx.properties);
    ctx.registerDefault(MailTemplates, { useValue: defaultMailTemplates });
    let delivery: SmtpOneTimeTokenDelivery | undefined;
    ctx.registerDefault(OneTimeTokenDelivery, {
      useFactory: (c) => {
        delivery = new SmtpOneTimeTokenDelivery({ smtp, templates: c.resolve(MailTemplates) });
        return delivery;
      },
    });
    ctx.onStop("mail-smtp", () => delivery?.close());
  },
};

function smtpChosen(properties: PlatformProperties): boolean {
  return properties.list().some((p) => p.key === OTT_DELIVERY_KEY && p.value === "smtp");
}
