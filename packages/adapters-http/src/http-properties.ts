import { defineProperty, type PlatformPlugin, prop } from "@keyward/core";
import { WEB_ERROR_CODES } from "@keyward/core/errors";
import { AuditListener } from "@keyward/core/ports";
import { REST_DOCS_PATH, RouteTable } from "@keyward/core/web";
import { HTTP_ACCESS_LOG_ENABLED } from "./access-log.js";
import { mailPlugin } from "./mail/mail-plugin.js";
import { HTTP_METRICS_ENABLED, HTTP_METRICS_PROPERTIES } from "./metrics/metrics-properties.js";
import { PLATFORM_METRICS, PlatformMetrics } from "./metrics/platform-metrics.js";
import { HTTP_OPENAPI_ENABLED } from "./openapi/openapi-properties.js";
import { MAX_PROXY_HOPS, parseTrustedProxies } from "./trusted-proxies.js";

/** Largest request body the binding reads, in bytes (`1mb`, `64KiB` or bytes); larger bodies answer 413. */
export const HTTP_MAX_BODY_SIZE = defineProperty({
  key: "platform.http.max-body-size",
  schema: prop.byteSize(),
  default: 1_048_576,
  description: "Largest request body read, in bytes; a larger one (declared or streamed) answers 413.",
});

/**
 * The proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (`parseTrustedProxies`): empty
 * (none: the socket peer is the client), a comma-separated list of addresses, CIDRs and the names
 * `loopback`, `linklocal`, `uniquelocal`, or a hop count `1`..`32`. The client is the right-most
 * X-Forwarded-For entry that is not a trusted proxy, and only when the socket peer is one.
 */
export const HTTP_TRUSTED_PROXIES = defineProperty({
  key: "platform.http.trusted-proxies",
  schema: prop
    .text()
    .or(prop.int(1, MAX_PROXY_HOPS))
    .superRefine((value, ctx) => {
      const parsed = parseTrustedProxies(String(value));
      if (typeof parsed === "string") ctx.addIssue({ code: "custom", message: parsed });
    })
    .transform((value) => String(value).trim()),
  default: "",
  description:
    "Proxies whose X-Forwarded-For / X-Forwarded-Proto count: addresses, CIDRs, loopback/linklocal/uniquelocal, or a hop count; empty trusts none.",
});

/**
 * Removed in security-fix wave 2, kept declared so a config that still sets it gets a pointed answer:
 * `true` trusted the left-most X-Forwarded-For entry, which any client writes, so it now stops
 * start-up and names `platform.http.trusted-proxies`; `false` is accepted and changes nothing.
 */
export const HTTP_TRUST_PROXY = defineProperty({
  key: "platform.http.trust-proxy",
  schema: prop.bool().refine((value) => value === false, {
    message:
      "is no longer supported: it trusted the left-most X-Forwarded-For entry, which any client can forge; set platform.http.trusted-proxies (your proxies' addresses or CIDRs, or a hop count) instead",
  }),
  default: false,
  description: "Removed: true stops start-up (see platform.http.trusted-proxies); false changes nothing.",
  inert:
    "replaced by platform.http.trusted-proxies; true stops start-up so a forgeable setting is never silently kept",
});

/** Every property the HTTP binding reads. */
export const HTTP_PROPERTIES = [
  HTTP_MAX_BODY_SIZE,
  HTTP_TRUSTED_PROXIES,
  HTTP_TRUST_PROXY,
  HTTP_ACCESS_LOG_ENABLED,
  ...HTTP_METRICS_PROPERTIES,
  HTTP_OPENAPI_ENABLED,
  REST_DOCS_PATH,
] as const;

/**
 * The HTTP binding as a platform module: it declares the `platform.http.*` properties and, unless a
 * plugin did, the platform's RouteTable (createHttpApp serves it); with metrics enabled, this
 * platform's PlatformMetrics (a registry of its own), which hears the audit trail.
 */
export const httpPlugin: PlatformPlugin = {
  id: "http",
  properties: HTTP_PROPERTIES,
  // The binding answers the web model's codes (a malformed request, an unknown route or method).
  errorCodes: [WEB_ERROR_CODES],
  includes: [mailPlugin],
  register(ctx) {
    ctx.registerDefault(RouteTable, { useFactory: () => new RouteTable() });
    if (!ctx.properties.get(HTTP_METRICS_ENABLED)) return;
    ctx.registerDefault(PLATFORM_METRICS, { useFactory: () => new PlatformMetrics() });
    ctx.registerMember(AuditListener, {
      useFactory: (c) => (c.resolve(PLATFORM_METRICS) as PlatformMetrics).auditListener,
    });
  },
};
