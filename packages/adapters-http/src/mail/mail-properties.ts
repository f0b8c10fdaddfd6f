import { defineProperty, type PlatformProperties, prop } from "@keyward/core";
import { PlatformError } from "@keyward/core/errors";
import { z } from "zod";
import { mailboxAddressProblem } from "./mailbox-address.js";

/** The SMTP server's host name or address. */
export const MAIL_SMTP_HOST = defineProperty({
  key: "platform.mail.smtp.host",
  schema: prop.text().refine((v) => /^[A-Za-z0-9.:-]{0,253}$/.test(v), "must be a host name or IP address"),
  default: "",
  description: "SMTP server host name or IP address; required with platform.auth.ott.delivery=smtp.",
});

/** The SMTP server's port. */
export const MAIL_SMTP_PORT = defineProperty({
  key: "platform.mail.smtp.port",
  schema: prop.int(1, 65_535),
  default: 587,
  description: "SMTP server port: 587 (submission, STARTTLS), 465 (implicit TLS) or 25.",
});

/** How the connection is protected. */
export const MAIL_SMTP_SECURITY = defineProperty({
  key: "platform.mail.smtp.security",
  schema: z.enum(["starttls", "tls", "none"], { error: "must be starttls, tls or none" }),
  default: "starttls" as "starttls" | "tls" | "none",
  description:
    "starttls: upgrade with STARTTLS and refuse a server that does not offer it; tls: TLS from the " +
    "first byte (port 465); none: plain text, for a relay on the same host or network only.",
});

/** The SMTP user name (empty: no authentication). */
export const MAIL_SMTP_USER = defineProperty({
  key: "platform.mail.smtp.user",
  schema: prop.text().refine((v) => v.length <= 256, "must be at most 256 characters"),
  default: "",
  description: "SMTP AUTH user name; empty sends without authenticating.",
});

/** The SMTP password: a secret, never logged or shown. */
export const MAIL_SMTP_PASSWORD = defineProperty({
  key: "platform.mail.smtp.password",
  schema: prop.text(),
  default: "",
  description: "SMTP AUTH password (with user). Secret: never logged; set it from the environment.",
});

/** The sender address. */
export const MAIL_SMTP_FROM = defineProperty({
  key: "platform.mail.smtp.from",
  schema: prop.text().refine((v) => v === "" || mailboxAddressProblem(v) === undefined, "must be an address"),
  default: "",
  description: "Sender address (envelope and From header), e.g. no-reply@example.com; required with smtp.",
});

/** How long connecting (and the server's greeting) may take. */
export const MAIL_SMTP_CONNECT_TIMEOUT = defineProperty({
  key: "platform.mail.smtp.connect-timeout",
  schema: prop.duration().refine((ms) => ms >= 100 && ms <= 120_000, "must be between 100ms and 2m"),
  default: 10_000,
  description: "How long connecting to the SMTP server and waiting for its greeting may take.",
});

/** How long the server may stay silent during a send. */
export const MAIL_SMTP_SEND_TIMEOUT = defineProperty({
  key: "platform.mail.smtp.send-timeout",
  schema: prop.duration().refine((ms) => ms >= 100 && ms <= 300_000, "must be between 100ms and 5m"),
  default: 30_000,
  description: "How long the SMTP server may stay silent while a message is sent; then the send fails.",
});

/** Every mail property, for the mail plugin's `properties` list. */
export const MAIL_PROPERTIES = [
  MAIL_SMTP_HOST,
  MAIL_SMTP_PORT,
  MAIL_SMTP_SECURITY,
  MAIL_SMTP_USER,
  MAIL_SMTP_PASSWORD,
  MAIL_SMTP_FROM,
  MAIL_SMTP_CONNECT_TIMEOUT,
  MAIL_SMTP_SEND_TIMEOUT,
] as const;

/** Where and how the SMTP delivery sends. */
export interface SmtpSettings {
  host: string;
  port: number;
  security: "starttls" | "tls" | "none";
  /** Empty: no authentication. */
  user: string;
  /** A secret: never logged. */
  password: string;
  from: string;
  connectTimeoutMs: number;
  sendTimeoutMs: number;
}

/** Reads the SMTP settings from resolved properties (checked by `checkSmtpSettings`). */
export function smtpSettingsFromProperties(properties: PlatformProperties): SmtpSettings {
  return checkSmtpSettings({
    host: properties.get(MAIL_SMTP_HOST),
    port: properties.get(MAIL_SMTP_PORT),
    security: properties.get(MAIL_SMTP_SECURITY),
    user: properties.get(MAIL_SMTP_USER),
    password: properties.get(MAIL_SMTP_PASSWORD),
    from: properties.get(MAIL_SMTP_FROM),
    connectTimeoutMs: properties.get(MAIL_SMTP_CONNECT_TIMEOUT),
    sendTimeoutMs: properties.get(MAIL_SMTP_SEND_TIMEOUT),
  });
}

/** `smtp`, or CONFIGURATION_INVALID naming the keys when the host or the sender address is missing. */
export function checkSmtpSettings(smtp: SmtpSettings): SmtpSettings {
  const missing = [
    ...(smtp.host === "" ? [MAIL_SMTP_HOST.key] : []),
    ...(mailboxAddressProblem(smtp.from) === undefined ? [] : [MAIL_SMTP_FROM.key]),
  ];
  if (missing.length === 0) return smtp;
  throw new PlatformError(
    "CONFIGURATION_INVALID",
    `platform.auth.ott.delivery=smtp needs ${missing.join(" and ")} (an SMTP host and a sender address)`,
    { details: { keys: missing } },
  );
}
