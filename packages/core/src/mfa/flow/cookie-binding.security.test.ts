import { describe, expect, it } from "vitest";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { CookieBinding } from "./cookie-binding.js";
import { MFA_BINDING_COOKIE, MfaCallerBinding } from "./mfa-caller-binding.js";

const ids = new CryptoIdGenerator();

function request(headers: Record<string, string | undefined> = {}): HttpExchange {
  return new HttpExchange({ method: "POST", url: "/login/mfa-ott", headers, remoteAddress: "203.0.113.7" });
}

/** A binding issued for `id`: what is stored and what the caller presents. */
function issued(binding: CookieBinding, id = "sess1") {
  return binding.issue(request(), id, 600);
}

describe("CookieBinding with a binding header (X-MFA-Binding)", () => {
  const binding = new MfaCallerBinding(ids);

  it("issue() sets the cookie to the value it returns, and stores only a hash of the secret", () => {
    const x = request();
    const { stored, value } = binding.issue(x, "sess1", 600);
    const cookie = x.response.cookies.find((c) => c.name === MFA_BINDING_COOKIE);
    expect(cookie).toMatchObject({ value, httpOnly: true, sameSite: "Strict" });
    expect(value.startsWith("sess1.")).toBe(true);
    expect(stored).not.toContain(value.slice("sess1.".length));
  });

  it("accepts the header alone, the cookie alone, or both when they agree", () => {
    const { stored, value } = issued(binding);
    for (const headers of [
      { "x-mfa-binding": value },
      { cookie: `${MFA_BINDING_COOKIE}=${value}` },
      { "x-mfa-binding": value, cookie: `${MFA_BINDING_COOKIE}=${value}` },
    ]) {
      const x = request(headers);
      expect(binding.matches(x, "sess1", stored)).toBe(true);
      expect(binding.sessionIdOf(x)).toBe("sess1");
      expect(binding.conflicts(x)).toBe(false);
    }
  });

  it("refuses a header and a cookie that disagree, whichever of them is right", () => {
    const mine = issued(binding);
    const other = issued(binding, "sess2");
    for (const [header, cookie] of [
      [mine.value, other.value],
      [other.value, mine.value],
    ]) {
      const x = request({ "x-mfa-binding": header, cookie: `${MFA_BINDING_COOKIE}=${cookie}` });
      expect(binding.conflicts(x)).toBe(true);
      expect(binding.matches(x, "sess1", mine.stored)).toBe(false);
      expect(binding.sessionIdOf(x)).toBeUndefined();
    }
  });

  it("refuses a header with the wrong secret, another record's id, or no secret", () => {
    const { stored, value } = issued(binding);
    const other = issued(binding, "sess2");
    for (const forged of [`sess1.${"A".repeat(43)}`, other.value, "sess1", "sess1.", `${value}x`]) {
      expect(binding.matches(request({ "x-mfa-binding": forged }), "sess1", stored)).toBe(false);
    }
  });

  it("treats an empty header as absent (the cookie still counts)", () => {
    const { stored, value } = issued(binding);
    const x = request({ "x-mfa-binding": "", cookie: `${MFA_BINDING_COOKIE}=${value}` });
    expect(binding.conflicts(x)).toBe(false);
    expect(binding.matches(x, "sess1", stored)).toBe(true);
  });

  it("a binding without a header name ignores the header", () => {
    const cookieOnly = new CookieBinding(ids, "PLATFORM_OTHER");
    const { stored, value } = cookieOnly.issue(request(), "rec1", 60);
    expect(cookieOnly.matches(request({ "x-mfa-binding": value }), "rec1", stored)).toBe(false);
    expect(cookieOnly.matches(request({ cookie: `PLATFORM_OTHER=${value}` }), "rec1", stored)).toBe(true);
  });
});
