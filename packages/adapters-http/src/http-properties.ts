import { defineProperty, type PlatformPlugin, prop } from "@platform/core";

/** Largest request body the binding reads, in bytes (`1mb`, `64KiB` or bytes); larger bodies answer 413. */
export const HTTP_MAX_BODY_SIZE = defineProperty({
  key: "platform.http.max-body-size",
  schema: prop.byteSize(),
  default: 1_048_576,
  description: "Largest request body read, in bytes; a larger one (declared or streamed) answers 413.",
});

/**
 * Whether a proxy in front of us is trusted: when true the remote address is the first
 * X-Forwarded-For entry and X-Forwarded-Proto decides `secure`; when false both come from the socket.
 */
export const HTTP_TRUST_PROXY = defineProperty({
  key: "platform.http.trust-proxy",
  schema: prop.bool(),
  default: false,
  description:
    "Trust X-Forwarded-For / X-Forwarded-Proto (first entry) for the remote address and TLS; only behind a proxy that overwrites them.",
});

/** Every property the HTTP binding reads. */
export const HTTP_PROPERTIES = [HTTP_MAX_BODY_SIZE, HTTP_TRUST_PROXY] as const;

/** The HTTP binding as a platform module: it declares the `platform.http.*` properties (nothing else yet). */
export const httpPlugin: PlatformPlugin = {
  id: "http",
  properties: HTTP_PROPERTIES,
  register() {
    // Nothing to register yet: createHttpApp reads the properties and the kernel's ports directly.
  },
};
