import { createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { RecordingLogger } from "../adaptive/ai-adaptive-mfa-policy-provider.test-support.js";
import { loadDeviceCookieKey } from "./device-cookie-key.js";
import { DEVICE_COOKIE } from "./device-cookies.js";
import { HmacDeviceCookies } from "./hmac-device-cookies.js";

const KEY = new Uint8Array(Buffer.from("a-configured-device-cookie-key-of-at-least-32-bytes"));
const YEAR = 365 * 24 * 3600;

function cookies(key: Uint8Array = KEY): HmacDeviceCookies {
  return new HmacDeviceCookies({ key, maxAgeSeconds: YEAR, ids: new CryptoIdGenerator() });
}

function exchange(cookie?: string, secure = false): HttpExchange {
  return new HttpExchange({
    method: "POST",
    url: "/login",
    headers: cookie === undefined ? {} : { cookie: `${DEVICE_COOKIE}=${cookie}` },
    remoteAddress: "203.0.113.7",
    secure,
  });
}

/** The cookie value an instance sets on a new exchange. */
function issued(instance: HmacDeviceCookies, secure = false): { id: string; value: string } {
  const x = exchange(undefined, secure);
  const id = instance.issue(x);
  const set = x.response.cookies.find((c) => c.name === DEVICE_COOKIE);
  return { id, value: set!.value };
}

describe("HmacDeviceCookies (issue #12 item 4)", () => {
  it("issues an HttpOnly, SameSite=Lax, long-lived cookie, Secure on https, that verifies", () => {
    for (const secure of [false, true]) {
      const x = exchange(undefined, secure);
      const id = cookies().issue(x);
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(x.response.cookies).toContainEqual({
        name: DEVICE_COOKIE,
        value: expect.stringMatching(new RegExp(`^${id}\\.[A-Za-z0-9_-]{43}$`)),
        httpOnly: true,
        secure,
        sameSite: "Lax",
        path: "/",
        maxAge: YEAR,
      });
      const value = x.response.cookies[0]!.value;
      expect(cookies().verifiedId(exchange(value))).toBe(id);
    }
  });

  it("re-issues a verified id (renewal) and replaces an id that is not one of ours", () => {
    const instance = cookies();
    const { id } = issued(instance);
    const x = exchange();
    expect(instance.issue(x, id)).toBe(id);
    expect(instance.issue(exchange(), "<script>")).not.toBe("<script>");
  });

  it("a cookie signed by another instance with the same configured key is valid", () => {
    const { id, value } = issued(cookies(Uint8Array.from(KEY)));
    expect(cookies(Uint8Array.from(KEY)).verifiedId(exchange(value))).toBe(id);
  });

  it("refuses forged, unsigned, tampered and foreign-key cookies", () => {
    const instance = cookies();
    const { id, value } = issued(instance);
    const mac = value.slice(id.length + 1);
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const otherKey = issued(cookies(new Uint8Array(randomBytes(32)))).value;
    const forged = `${id}.${createHmac("sha256", "guess").update(`platform.device:${id}`).digest("base64url")}`;
    const bad = [
      id, // unsigned
      `${id}.`,
      `.${mac}`,
      `${flip(id, 3)}.${mac}`, // tampered id
      `${id}.${flip(mac, 10)}`, // tampered mac
      `${id}.${mac}x`,
      forged,
      otherKey,
      `${"a".repeat(200)}.${mac}`,
      `${id}%00.${mac}`,
      "",
    ];
    for (const value of bad) expect(instance.verifiedId(exchange(value)), value).toBeUndefined();
    expect(instance.verifiedId(exchange())).toBeUndefined();
  });

  it("refuses a key shorter than 32 bytes", () => {
    expect(() => cookies(new Uint8Array(31))).toThrow(/at least 32 bytes/);
  });
});

describe("loadDeviceCookieKey", () => {
  it("takes UTF-8 text or base64url: data, at least 32 bytes, and never echoes the secret", () => {
    const logger = new RecordingLogger();
    expect(loadDeviceCookieKey("k".repeat(32), logger)).toMatchObject({ generated: false });
    const raw = randomBytes(32);
    const decoded = loadDeviceCookieKey(`base64url:${raw.toString("base64url")}`, logger);
    expect(Buffer.from(decoded.key).equals(raw)).toBe(true);
    for (const secret of ["short-secret-value", "base64url:AAAA", "base64url:not base64!"]) {
      let message = "";
      try {
        loadDeviceCookieKey(secret, logger);
      } catch (error) {
        message = `${(error as Error).message} ${JSON.stringify(error)}`;
        expect(error).toMatchObject({ code: "CONFIGURATION_INVALID" });
      }
      expect(message).toContain("platform.auth.device-cookie.secret");
      expect(message).not.toContain(secret);
    }
    expect(logger.lines).toEqual([]);
  });

  it("generates a per-process key with a warning when none is configured", () => {
    const logger = new RecordingLogger();
    const a = loadDeviceCookieKey("", logger);
    const b = loadDeviceCookieKey("  ", logger);
    expect(a.generated && b.generated).toBe(true);
    expect(a.key).toHaveLength(32);
    expect(Buffer.from(a.key).equals(Buffer.from(b.key))).toBe(false);
    expect(logger.lines).toHaveLength(2);
    expect(logger.lines[0]).toMatchObject({ level: "warn", message: expect.stringMatching(/per process/) });
  });
});
