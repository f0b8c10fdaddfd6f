import { PlatformError } from "../../kernel/platform-error.js";
import type { OneTimeToken } from "./one-time-token-service.js";

/** Where magic links point: the configured public base URL and the submit page path. */
export interface MagicLinkOptions {
  /** The public origin (and optional path prefix) users reach the app at, e.g. `https://app.example`. */
  baseUrl: string;
  /** The submit page path, e.g. `/login/ott`. */
  submitPageUrl: string;
}

/**
 * Builds `linkFor` of the DeliveringGenerationSuccessHandler: `<baseUrl><submitPageUrl>?token=<value>`.
 * The base URL is configuration, never the request's Host header: a forged Host would otherwise mail
 * the real user a link to the attacker's server carrying a live token (reset-link poisoning).
 */
export function magicLinkFor(options: MagicLinkOptions): (token: OneTimeToken) => string {
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch (cause) {
    throw invalid(options.baseUrl, cause);
  }
  if (
    (base.protocol !== "http:" && base.protocol !== "https:") ||
    base.search ||
    base.hash ||
    base.username
  ) {
    throw invalid(options.baseUrl);
  }
  if (!options.submitPageUrl.startsWith("/")) {
    throw new PlatformError("CONFIGURATION_INVALID", "The magic link's submit page must be a local path", {
      details: { submitPageUrl: options.submitPageUrl },
    });
  }
  const prefix = `${base.origin}${base.pathname.replace(/\/+$/, "")}${options.submitPageUrl}`;
  return (token) => `${prefix}?token=${encodeURIComponent(token.getTokenValue())}`;
}

function invalid(baseUrl: string, cause?: unknown): PlatformError {
  return new PlatformError(
    "CONFIGURATION_INVALID",
    "The magic link base URL must be an http(s) URL without query",
    {
      cause,
      details: { baseUrl },
    },
  );
}
