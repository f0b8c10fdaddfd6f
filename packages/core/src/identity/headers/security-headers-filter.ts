import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { NextFilter, SecurityFilter } from "../chain/security-filter.js";
import { DONE } from "../../web/request-pipeline.js";

/** Strict-Transport-Security settings. */
export interface HstsOptions {
  /** `max-age` in seconds (default 31536000, one year). */
  maxAgeSeconds?: number;
  /** Adds `includeSubDomains` (default true). */
  includeSubDomains?: boolean;
  /** Adds `preload` (default false: preloading is hard to undo, so it is an explicit choice). */
  preload?: boolean;
}

/** Default Content-Security-Policy of HTML pages: same-origin everything, no plugins, no framing. */
export const DEFAULT_CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "frame-ancestors 'none'; form-action 'self'; base-uri 'self'; object-src 'none'";

/** Options of the SecurityHeadersFilter; `false` turns a header off. */
export interface SecurityHeadersOptions {
  /** `X-Content-Type-Options: nosniff` (default true). */
  contentTypeOptions?: boolean;
  /** `X-Frame-Options` (default `DENY`). */
  frameOptions?: "DENY" | "SAMEORIGIN" | false;
  /** `Referrer-Policy` (default `no-referrer`). */
  referrerPolicy?: string | false;
  /** `Strict-Transport-Security`, sent on https requests only (default one year, includeSubDomains). */
  hsts?: HstsOptions | false;
  /** `Content-Security-Policy` of text/html responses (default DEFAULT_CONTENT_SECURITY_POLICY). */
  contentSecurityPolicy?: string | false;
  /** `Cache-Control: no-store` unless the response sets its own (default true). */
  cacheControl?: boolean;
}

const REFERRER_POLICIES = new Set([
  "no-referrer",
  "no-referrer-when-downgrade",
  "origin",
  "origin-when-cross-origin",
  "same-origin",
  "strict-origin",
  "strict-origin-when-cross-origin",
  "unsafe-url",
]);

/**
 * Adds the security response headers. Everything but the CSP is set before the rest of the chain runs,
 * so error responses carry them too, and a route may override any of them by setting its own. The CSP
 * is added afterwards, to text/html responses only, unless the route set one.
 */
export class SecurityHeadersFilter implements SecurityFilter {
  readonly name = "headers";
  private readonly before: ReadonlyArray<readonly [string, string]>;
  private readonly hsts: string | undefined;
  private readonly csp: string | undefined;
  private readonly cacheControl: boolean;

  constructor(options: SecurityHeadersOptions = {}) {
    const before: [string, string][] = [];
    if (options.contentTypeOptions ?? true) before.push(["x-content-type-options", "nosniff"]);
    const frame = options.frameOptions ?? "DENY";
    if (frame !== false) {
      if (frame !== "DENY" && frame !== "SAMEORIGIN") invalid("frameOptions", frame);
      before.push(["x-frame-options", frame]);
    }
    const referrer = options.referrerPolicy ?? "no-referrer";
    if (referrer !== false) {
      const policies = referrer.split(",").map((p) => p.trim().toLowerCase());
      if (!policies.every((p) => REFERRER_POLICIES.has(p))) invalid("referrerPolicy", referrer);
      before.push(["referrer-policy", referrer]);
    }
    this.before = before;
    this.hsts = options.hsts === false ? undefined : hstsValue(options.hsts ?? {});
    const csp = options.contentSecurityPolicy ?? DEFAULT_CONTENT_SECURITY_POLICY;
    if (csp !== false && (csp.trim() === "" || !isHeaderValue(csp))) invalid("contentSecurityPolicy", csp);
    this.csp = csp === false ? undefined : csp;
    this.cacheControl = options.cacheControl ?? true;
  }

  /**
   * Sets the headers, runs the rest of the chain, then settles the answer's headers (`settle`), on
   * success and on failure alike. Not an async function: one `then` per request, no async frame,
   * and none when the rest finished at once (DONE: settled here and then).
   */
  filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    const headers = exchange.response.headers;
    const before = this.before;
    for (let i = 0; i < before.length; i++) {
      const pair = before[i] as readonly [string, string];
      headers.set(pair[0], pair[1]);
    }
    if (this.hsts && exchange.secure) headers.set("strict-transport-security", this.hsts);
    if (this.cacheControl) headers.set("cache-control", "no-store");
    let pending: Promise<void>;
    try {
      pending = next();
    } catch (error) {
      this.settle(headers);
      return Promise.reject(error);
    }
    if (pending === DONE) {
      this.settle(headers);
      return DONE;
    }
    return pending.then(this.settle.bind(this, headers), (error: unknown) => {
      this.settle(headers);
      throw error;
    });
  }

  /**
   * After the rest of the chain: a route's own `Cache-Control` (in any case) replaces the default
   * one, and an HTML answer without a policy of its own gets the Content-Security-Policy. One pass
   * over the names (any case), no helper per question.
   */
  private settle(headers: Map<string, string>): void {
    let cacheControls = 0;
    let policies = 0;
    let html = false;
    for (const name of headers.keys()) {
      const lower = name.toLowerCase();
      if (lower === "cache-control") cacheControls++;
      else if (lower === "content-security-policy") policies++;
      else if (lower === "content-type" && HTML_TYPE.test(headers.get(name) as string)) html = true;
    }
    // A route that wrote `Cache-Control` in another case keeps its own value, not both.
    if (this.cacheControl && cacheControls > 1) headers.delete("cache-control");
    if (this.csp && html && policies === 0) headers.set("content-security-policy", this.csp);
  }
}

function hstsValue(options: HstsOptions): string {
  const maxAge = options.maxAgeSeconds ?? 31_536_000;
  if (!Number.isSafeInteger(maxAge) || maxAge < 0) invalid("hsts.maxAgeSeconds", maxAge);
  let value = `max-age=${maxAge}`;
  if (options.includeSubDomains ?? true) value += "; includeSubDomains";
  if (options.preload) value += "; preload";
  return value;
}

const HTML_TYPE = /^\s*text\/html\b/i;

/** Printable ASCII and tabs only: a configured value must not be able to split the header block. */
function isHeaderValue(value: string): boolean {
  return /^[\t\x20-\x7e]*$/.test(value);
}

function invalid(option: string, value: unknown): never {
  throw new PlatformError("CONFIGURATION_INVALID", `Invalid security headers option ${option}`, {
    details: { option, value: String(value) },
  });
}
