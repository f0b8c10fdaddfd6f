import { z } from "zod";
import { defineProperty, type PlatformProperties, prop } from "../../kernel/properties.js";
import { DEFAULT_ONE_TIME_TOKEN_TTL_MS } from "./in-memory-one-time-token-service.js";
import { OTT_GENERATION_LIMITS_DEFAULTS } from "./ott-generation-limiter.js";
import { DEFAULT_OTT_OUTBOX_FILE } from "./outbox-one-time-token-delivery.js";

/** How long a one-time token signs in. */
export const OTT_TOKEN_TTL = defineProperty({
  key: "platform.auth.ott.token-ttl",
  schema: prop.duration().refine((ms) => ms >= 10_000 && ms <= 86_400_000, "must be between 10s and 24h"),
  default: DEFAULT_ONE_TIME_TOKEN_TTL_MS,
  description: "How long a one-time sign-in token (magic link) works after it is generated; e.g. PT5M.",
});

/** The JSON Lines file the outbox delivery appends to. */
export const OTT_OUTBOX_FILE = defineProperty({
  key: "platform.auth.ott.outbox-file",
  schema: prop.string(),
  default: DEFAULT_OTT_OUTBOX_FILE,
  description:
    "File the outbox delivery appends one JSON line per token to ({at, channel, to, username, token, " +
    "link}); relative to the working directory. It holds live credentials: development only.",
});

/** Which built-in delivery sends tokens when the host registers none. */
export const OTT_DELIVERY = defineProperty({
  key: "platform.auth.ott.delivery",
  schema: z.enum(["outbox", "console", "smtp"], { error: "must be outbox, console or smtp" }),
  default: "outbox" as OttDeliveryKind,
  description:
    "Built-in token delivery used when the host registers no OneTimeTokenDelivery: outbox (a file, see " +
    "outbox-file), console (standard output) or smtp (mail through platform.mail.smtp.*; the mail " +
    "plugin of @keyward/adapters-http, which httpPlugin includes, provides it).",
});

/** The built-in deliveries `platform.auth.ott.delivery` names. */
export type OttDeliveryKind = "outbox" | "console" | "smtp";

/** Generation requests per username per window. */
export const OTT_MAX_PER_USER = defineProperty({
  key: "platform.auth.ott.max-per-user",
  schema: prop.int(1, 1000),
  default: OTT_GENERATION_LIMITS_DEFAULTS.maxPerUser,
  description:
    "Sign-in link requests for one username (known or not) per rate window; more answer 429 TOO_MANY_ATTEMPTS.",
});

/** Generation requests per client address per window. */
export const OTT_MAX_PER_IP = defineProperty({
  key: "platform.auth.ott.max-per-ip",
  schema: prop.int(1, 100_000),
  default: OTT_GENERATION_LIMITS_DEFAULTS.maxPerIp,
  description:
    "Sign-in link requests from one address (IPv6: one /64) per rate window; more answer 429 TOO_MANY_ATTEMPTS.",
});

/** The window both generation limits count in. */
export const OTT_RATE_WINDOW = defineProperty({
  key: "platform.auth.ott.rate-window",
  schema: prop.duration().refine((ms) => ms >= 1_000 && ms <= 7 * 86_400_000, "must be between 1s and 7d"),
  default: OTT_GENERATION_LIMITS_DEFAULTS.windowMs,
  description: "Window of max-per-user and max-per-ip, from a counter's first request; e.g. PT15M.",
});

/** Every one-time-token property, for a plugin's `properties` list. */
export const OTT_PROPERTIES = [
  OTT_TOKEN_TTL,
  OTT_OUTBOX_FILE,
  OTT_DELIVERY,
  OTT_MAX_PER_USER,
  OTT_MAX_PER_IP,
  OTT_RATE_WINDOW,
] as const;

/** The resolved one-time-token settings. */
export interface OttSettings {
  tokenTtlMs: number;
  outboxFile: string;
  delivery: OttDeliveryKind;
  maxPerUser: number;
  maxPerIp: number;
  windowMs: number;
}

/** Reads the one-time-token settings from resolved properties. */
export function ottSettingsFromProperties(properties: PlatformProperties): OttSettings {
  return {
    tokenTtlMs: properties.get(OTT_TOKEN_TTL),
    outboxFile: properties.get(OTT_OUTBOX_FILE),
    delivery: properties.get(OTT_DELIVERY),
    maxPerUser: properties.get(OTT_MAX_PER_USER),
    maxPerIp: properties.get(OTT_MAX_PER_IP),
    windowMs: properties.get(OTT_RATE_WINDOW),
  };
}
