import { PlatformError } from "../kernel/platform-error.js";
import { defineProperty, type PlatformProperties, prop } from "../kernel/properties.js";
import type { ServerAddress } from "../kernel/server-address.js";
import { z } from "zod";

/** The public base URL users reach the platform at (magic links point there). */
export const PUBLIC_URL = defineProperty<string>({
  key: "platform.server.public-url",
  schema: z.union([
    z.literal(""),
    prop.string().pipe(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" })),
  ]),
  default: "",
  description: "Public base URL for links sent to users; empty means http://localhost:<port> once listening.",
});

/**
 * The public base URL: the configured one, else `http://localhost:<port>` once the server listens.
 * Never the request's Host header (a forged Host would poison the links).
 */
export function publicUrlOf(properties: PlatformProperties, address: ServerAddress): () => string {
  return () => {
    const configured = properties.get(PUBLIC_URL);
    if (configured) return configured;
    const local = address.localOrigin();
    if (!local) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        "Set platform.server.public-url: the listening port is not known yet",
      );
    }
    return local;
  };
}
