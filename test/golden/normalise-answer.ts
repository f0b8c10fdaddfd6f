import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { RawAnswer } from "./golden-client.js";
import type { RecordedAnswer } from "./golden-types.js";

/** Headers left out of the record: transport details that say nothing about behaviour. */
const TRANSPORT_HEADERS = new Set([
  "date",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
]);

/** JSON fields whose string value is volatile, and the placeholder kind each gets. */
const VOLATILE_FIELDS: Record<string, string> = {
  accessToken: "access-token",
  refreshToken: "refresh-token",
  csrfToken: "csrf",
  mfaSessionId: "mfa-session",
  mfaBinding: "mfa-binding",
  id: "id",
  userId: "user-id",
  jti: "jti",
  sid: "sid",
  token: "token",
  challenge: "challenge",
  challengeId: "challenge",
  credentialId: "credential",
  rawId: "credential",
  kid: "kid",
  nonce: "nonce",
};

/** Cookies whose value is volatile, with the kinds of its dot-separated parts. */
const COOKIE_KINDS: Record<string, string[]> = {
  PLATFORM_SESSION: ["session"],
  PLATFORM_MFA: ["mfa-session", "mfa-secret"],
  PLATFORM_ESCALATION: ["escalation", "escalation-secret"],
  PLATFORM_DEVICE: ["device", "device-mac"],
  PLATFORM_WEBAUTHN: ["webauthn-challenge"],
};

/**
 * Headers whose value is volatile and unrelated to other values: recorded as one fixed placeholder
 * (presence counts, and one more or fewer does not renumber the rest of the flow).
 */
const OPAQUE_HEADERS = new Set(["x-correlation-id", "x-request-id"]);

/** Shortest value replaced wherever it occurs; shorter ones (MFA codes) only as a whole value. */
const MIN_SUBSTRING_LENGTH = 12;

/** Bodies longer than this are recorded as a digest and their first 120 characters (the built SDK bundles). */
export const MAX_TEXT_BODY = 16_384;

const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const NONCE = /(?:'nonce-|nonce=")([A-Za-z0-9+/_=-]{8,})/g;
const HTML_CSRF = /name="_csrf"\s+(?:content|value)="([^"]+)"/g;
const QUERY_TOKEN = /[?&]token=([A-Za-z0-9_%-]{16,})/g;
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z\b/g;
const HTTP_DATE = /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT\b/g;
/** Fields holding epoch seconds (JWT-style claims). */
const EPOCH_SECONDS_FIELDS = new Set(["iat", "exp", "nbf", "auth_time"]);
/** Fields holding a measured duration. */
const MEASURED_FIELDS = /^(durationMs|elapsedMs|tookMs)$/;

const YEAR = 365 * 86_400_000;
/** How close a number must be to T0 to count as a ManualClock time. */
const CLOCK_WINDOW = YEAR;
/** How close a number must be to the real time to count as a wall-clock time (T0 is further away). */
const WALL_CLOCK_WINDOW = 5 * YEAR;

/**
 * Turns raw answers into stable records. One instance per scenario (a flow): each volatile value
 * (session id, CSRF token, JWT, refresh token, OTT, id, nonce, challenge) gets a placeholder such as
 * `<session-1>` the first time it is seen, and the same placeholder every later time, so a rotation
 * shows as `<session-1>` → `<session-2>`. Times from the demo's ManualClock are written relative to
 * its start (`<T0+15m>`); times from the wall clock (code that bypasses the Clock port) as
 * `<wall-clock>`; the listening port as `<port>`.
 */
export class Normaliser {
  private readonly exact = new Map<string, string>();
  private readonly counters = new Map<string, number>();
  private substrings: Array<[string, string]> = [];

  constructor(
    private readonly port: number,
    private readonly t0: number,
  ) {}

  /** The placeholder of `value`, named `<kind-N>` on first sight. */
  name(kind: string, value: string): string {
    const known = this.exact.get(value);
    if (known) return known;
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    const placeholder = `<${kind}-${n}>`;
    this.exact.set(value, placeholder);
    if (value.length >= MIN_SUBSTRING_LENGTH) {
      this.substrings.push([value, placeholder]);
      this.substrings.sort((a, b) => b[0].length - a[0].length);
    }
    return placeholder;
  }

  /** Registers a value seen outside an answer (an MFA code read from the outbox, say). */
  learn(kind: string, value: string): void {
    this.name(kind, value);
  }

  /** The record of one answer. */
  answer(raw: RawAnswer): RecordedAnswer {
    const headers = this.headers(raw.headers);
    const body = this.body(raw.headers["content-type"], raw.body);
    return body === undefined ? { status: raw.status, headers } : { status: raw.status, headers, body };
  }

  /** A JSON value with volatile fields and strings replaced (`key` is the field it sits in). */
  json(value: unknown, key?: string): unknown {
    if (typeof value === "string") {
      if (key === "correlationId") return "<correlation-id>";
      const kind = key === undefined ? undefined : VOLATILE_FIELDS[key];
      if (kind && value.length >= MIN_SUBSTRING_LENGTH) {
        if (kind === "mfa-binding" && value.includes("."))
          return this.dotted(value, ["mfa-session", "mfa-secret"]);
        return this.exact.get(value) ?? (this.isTextual(value) ? this.text(value) : this.name(kind, value));
      }
      return this.exact.get(value) ?? this.text(value);
    }
    if (typeof value === "number") return this.number(value, key);
    if (Array.isArray(value)) return value.map((v) => this.json(v));
    if (value && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.json(v, k);
      return out;
    }
    return value;
  }

  /** Text (HTML, script, a header value) with known and recognisable volatile values replaced. */
  text(input: string): string {
    let s = input;
    for (const m of s.matchAll(JWT)) this.name("jwt", m[0]);
    for (const m of s.matchAll(UUID)) this.name("uuid", m[0]);
    for (const m of s.matchAll(NONCE)) this.name("nonce", m[1]!);
    for (const m of s.matchAll(HTML_CSRF)) this.name("csrf", m[1]!);
    for (const m of s.matchAll(QUERY_TOKEN)) this.name("token", decodeURIComponent(m[1]!));
    for (const [value, placeholder] of this.substrings) {
      if (s.includes(value)) s = s.split(value).join(placeholder);
      const encoded = encodeURIComponent(value);
      if (encoded !== value && s.includes(encoded)) s = s.split(encoded).join(placeholder);
    }
    s = s.split(`127.0.0.1:${this.port}`).join("127.0.0.1:<port>");
    s = s.split(`localhost:${this.port}`).join("localhost:<port>");
    s = s.replace(ISO_DATE, (d) => this.time(Date.parse(d)) ?? d);
    s = s.replace(HTTP_DATE, (d) => this.time(Date.parse(d)) ?? d);
    return s;
  }

  /** A header map: transport headers dropped, set-cookie as name + attributes, values normalised. */
  headers(raw: IncomingHttpHeaders): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const name of Object.keys(raw).sort()) {
      if (TRANSPORT_HEADERS.has(name)) continue;
      const value = raw[name];
      if (value === undefined) continue;
      if (name === "set-cookie") {
        out[name] = (Array.isArray(value) ? value : [value]).map((c) => this.setCookie(c));
        continue;
      }
      const joined = Array.isArray(value) ? value.join(", ") : value;
      out[name] = OPAQUE_HEADERS.has(name) ? `<${name}>` : this.text(joined);
    }
    return out;
  }

  /** A Set-Cookie line with its value replaced by a placeholder (an empty value stays empty). */
  setCookie(line: string): string {
    const [pair = "", ...attributes] = line.split(";");
    const eq = pair.indexOf("=");
    const cookie = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const kinds = COOKIE_KINDS[cookie] ?? [`cookie-${cookie.toLowerCase()}`];
    const shown = value === "" ? "" : this.dotted(value, kinds);
    return [`${cookie}=${shown}`, ...attributes.map((a) => this.text(a.trim()))].join("; ");
  }

  private dotted(value: string, kinds: string[]): string {
    const known = this.exact.get(value);
    if (known) return known;
    const parts = kinds.length > 1 ? value.split(".") : [value];
    if (parts.length !== kinds.length) return this.name(kinds[0]!, value);
    return parts.map((p, i) => this.exact.get(p) ?? this.name(kinds[i]!, p)).join(".");
  }

  private body(contentType: string | undefined, bytes: Buffer): unknown {
    if (bytes.byteLength === 0) return undefined;
    const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
    const textual = type.startsWith("text/") || type.includes("javascript") || type.includes("json");
    if (!textual) return { bytes: bytes.byteLength, sha256: sha256(bytes) };
    const text = bytes.toString("utf8");
    if (type.includes("json")) {
      try {
        return this.json(JSON.parse(text));
      } catch {
        return this.text(text);
      }
    }
    if (bytes.byteLength > MAX_TEXT_BODY) {
      const lines = text.split("\n");
      const start = lines[0]!.slice(0, 120);
      return { bytes: bytes.byteLength, lines: lines.length, sha256: sha256(bytes), start };
    }
    return this.text(text);
  }

  private number(value: number, key: string | undefined): unknown {
    if (key !== undefined && MEASURED_FIELDS.test(key)) return "<measured>";
    if (key !== undefined && EPOCH_SECONDS_FIELDS.has(key)) return this.time(value * 1000) ?? value;
    if (Number.isInteger(value) && value > 1e12) return this.time(value) ?? value;
    return value;
  }

  /** `<T0+…>` for a ManualClock time, `<wall-clock>` for a real one, undefined for anything else. */
  private time(ms: number): string | undefined {
    if (Number.isNaN(ms)) return undefined;
    const delta = ms - this.t0;
    if (Math.abs(delta) < CLOCK_WINDOW)
      return delta === 0 ? "<T0>" : `<T0${delta < 0 ? "-" : "+"}${span(Math.abs(delta))}>`;
    if (Math.abs(ms - Date.now()) < WALL_CLOCK_WINDOW) return "<wall-clock>";
    return undefined;
  }

  private isTextual(value: string): boolean {
    return /\s/.test(value);
  }
}

/** `1d2h3m4s5ms` for a positive number of milliseconds. */
function span(ms: number): string {
  const units: Array<[string, number]> = [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1000],
    ["ms", 1],
  ];
  let rest = ms;
  let out = "";
  for (const [unit, size] of units) {
    const n = Math.floor(rest / size);
    if (n > 0) out += `${n}${unit}`;
    rest -= n * size;
  }
  return out;
}

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}
