import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { NextFilter, SecurityFilter } from "../chain/security-filter.js";
import { canonicalConfiguredOrigin, canonicalRequestOrigin } from "./origin.js";

/** Options of the CorsFilter. */
export interface CorsOptions {
  /**
   * Origins allowed to call cross-origin, exactly (`https://app.example.com`; `null` only if listed
   * literally), or `"*"` for any origin, which is refused together with `allowCredentials`.
   */
  allowedOrigins: readonly string[];
  /** Methods a preflight may ask for (default `GET`, `POST`). */
  allowedMethods?: readonly string[];
  /**
   * Request headers a preflight may ask for (default `Content-Type`, `Authorization`, `X-CSRF-TOKEN`,
   * `X-Device-Id`, `X-MFA-Session-Id`, `X-MFA-Binding`).
   */
  allowedHeaders?: readonly string[];
  /** Response headers scripts may read beyond the safelisted ones (default none). */
  exposedHeaders?: readonly string[];
  /** Lets cookies and Authorization cross origins (default false). */
  allowCredentials?: boolean;
  /** How long a browser may cache a preflight answer, in seconds (default 600). */
  maxAgeSeconds?: number;
}

/** Default headers a preflight may ask for: what the platform's own pages and SDK send. */
export const DEFAULT_CORS_ALLOWED_HEADERS: readonly string[] = [
  "Content-Type",
  "Authorization",
  "X-CSRF-TOKEN",
  "X-Device-Id",
  "X-MFA-Session-Id",
  "X-MFA-Binding",
];

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const PREFLIGHT_VARY = ["Origin", "Access-Control-Request-Method", "Access-Control-Request-Headers"];

/**
 * CORS for one chain. Preflights (OPTIONS with Origin and Access-Control-Request-Method) are answered
 * here: 204 with the allow headers, or 403 ACCESS_DENIED; the rest of the chain never sees them. Other
 * requests from an allowed origin get Access-Control-Allow-Origin (and credentials/expose headers) and
 * continue; from any other origin they continue without CORS headers, so the browser withholds the
 * response. Origins are matched exactly against the configured list, never by substring or pattern.
 */
export class CorsFilter implements SecurityFilter {
  readonly name = "cors";
  private readonly anyOrigin: boolean;
  private readonly origins: ReadonlySet<string>;
  private readonly methods: ReadonlySet<string>;
  private readonly headers: ReadonlySet<string>;
  private readonly allowMethodsValue: string;
  private readonly allowHeadersValue: string;
  private readonly exposeHeadersValue: string;
  private readonly allowCredentials: boolean;
  private readonly maxAgeSeconds: number;

  constructor(options: CorsOptions) {
    this.allowCredentials = options.allowCredentials ?? false;
    this.anyOrigin = options.allowedOrigins.includes("*");
    if (this.anyOrigin && this.allowCredentials) {
      invalid("allowedOrigins '*' cannot be combined with allowCredentials; list the origins", {
        allowedOrigins: [...options.allowedOrigins],
      });
    }
    this.origins = new Set(options.allowedOrigins.filter((o) => o !== "*").map(canonicalConfiguredOrigin));
    const methods = tokens("allowedMethods", options.allowedMethods ?? ["GET", "POST"]).map((m) =>
      m.toUpperCase(),
    );
    this.methods = new Set(methods);
    this.allowMethodsValue = methods.join(", ");
    const headers = tokens("allowedHeaders", options.allowedHeaders ?? DEFAULT_CORS_ALLOWED_HEADERS);
    this.headers = new Set(headers.map((h) => h.toLowerCase()));
    this.allowHeadersValue = headers.join(", ");
    this.exposeHeadersValue = tokens("exposedHeaders", options.exposedHeaders ?? []).join(", ");
    this.maxAgeSeconds = options.maxAgeSeconds ?? 600;
    if (!Number.isSafeInteger(this.maxAgeSeconds) || this.maxAgeSeconds < 0) {
      invalid("maxAgeSeconds must be a non-negative integer", { maxAgeSeconds: this.maxAgeSeconds });
    }
  }

  async filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    const originHeader = exchange.header("origin");
    if (originHeader === undefined) return next();
    const requestMethod = exchange.header("access-control-request-method");
    const origin = this.allowedOrigin(originHeader);
    if (exchange.method === "OPTIONS" && requestMethod !== undefined) {
      appendVary(exchange, PREFLIGHT_VARY);
      if (origin === undefined || !this.preflightAllowed(requestMethod, exchange)) {
        exchange.json(403, { code: "ACCESS_DENIED", message: "CORS request refused" });
        return;
      }
      const headers = exchange.response.headers;
      headers.set("access-control-allow-origin", origin);
      if (this.allowCredentials) headers.set("access-control-allow-credentials", "true");
      headers.set("access-control-allow-methods", this.allowMethodsValue);
      if (this.allowHeadersValue) headers.set("access-control-allow-headers", this.allowHeadersValue);
      headers.set("access-control-max-age", String(this.maxAgeSeconds));
      exchange.response.status = 204;
      exchange.response.body = undefined;
      exchange.response.committed = true;
      return;
    }
    appendVary(exchange, ["Origin"]);
    if (origin !== undefined) {
      const headers = exchange.response.headers;
      headers.set("access-control-allow-origin", origin);
      if (this.allowCredentials) headers.set("access-control-allow-credentials", "true");
      if (this.exposeHeadersValue) headers.set("access-control-expose-headers", this.exposeHeadersValue);
    }
    await next();
  }

  /** The Access-Control-Allow-Origin value for this Origin header, or undefined when it is not allowed. */
  private allowedOrigin(header: string): string | undefined {
    const canonical = canonicalRequestOrigin(header);
    if (canonical === undefined) return undefined;
    if (this.origins.has(canonical)) return header;
    return this.anyOrigin && canonical !== "null" ? "*" : undefined;
  }

  private preflightAllowed(requestMethod: string, exchange: HttpExchange): boolean {
    if (!TOKEN.test(requestMethod) || !this.methods.has(requestMethod.toUpperCase())) return false;
    const requested = exchange.header("access-control-request-headers") ?? "";
    for (const raw of requested.split(",")) {
      const name = raw.trim();
      if (name === "") continue;
      if (!TOKEN.test(name) || !this.headers.has(name.toLowerCase())) return false;
    }
    return true;
  }
}

/** Adds names to the response's Vary header without duplicating any. */
function appendVary(exchange: HttpExchange, names: readonly string[]): void {
  const headers = exchange.response.headers;
  let key = "vary";
  for (const k of headers.keys()) if (k.toLowerCase() === "vary") key = k;
  const current = headers.get(key);
  const parts = current
    ? current
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean)
    : [];
  if (parts.includes("*")) return;
  const lower = new Set(parts.map((p) => p.toLowerCase()));
  for (const name of names) if (!lower.has(name.toLowerCase())) parts.push(name);
  headers.set(key, parts.join(", "));
}

function tokens(option: string, values: readonly string[]): string[] {
  for (const v of values)
    if (!TOKEN.test(v) || v === "*") invalid(`${option} must list names, not '${v}'`, { option, value: v });
  return [...values];
}

function invalid(message: string, details: Record<string, unknown>): never {
  throw new PlatformError("CONFIGURATION_INVALID", `CORS: ${message}`, { details });
}
