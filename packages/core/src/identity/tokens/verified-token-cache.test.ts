import { describe, expect, it } from "vitest";
import type { AccessTokenClaims } from "./access-token-claims.js";
import { VerifiedTokenCache } from "./verified-token-cache.js";

function claims(exp: number): AccessTokenClaims {
  return {
    iss: "platform",
    aud: "platform-api",
    sub: "user-1",
    jti: `jti-${exp}`,
    iat: exp - 900,
    exp,
    sid: "family-1",
    preferred_username: "alice",
    authorities: ["ROLE_USER"],
    auth_time: exp - 900,
    amr: ["pwd"],
    auth_method: "rest",
  } as AccessTokenClaims;
}

describe("VerifiedTokenCache", () => {
  it("holds a token, not its signature: another header or payload over the same signature is not a hit", () => {
    const cache = new VerifiedTokenCache(10);
    cache.set("h.p.sig", claims(1000));
    expect(cache.get("h.p.sig", 0, 30)).toMatchObject({ exp: 1000 });
    for (const forged of ["h.q.sig", "x.p.sig", "p.sig", "sig", "h.p.sig ", " h.p.sig", "h.p.sig2", "h.p.si"])
      expect(cache.get(forged, 0, 30)).toBeUndefined();
    // A forged token with the held one's signature, set after a (hypothetical) verification, replaces
    // it under that signature; the original is then verified again, never answered with the other's claims.
    cache.set("h.q.sig", claims(2000));
    expect(cache.get("h.q.sig", 0, 30)).toMatchObject({ exp: 2000 });
    expect(cache.get("h.p.sig", 0, 30)).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it("judges expiry on every lookup with the verifier's rule: expired once exp <= now - skew", () => {
    const cache = new VerifiedTokenCache(10);
    cache.set("t", claims(1000));
    expect(cache.get("t", 1029, 30)).toMatchObject({ exp: 1000 });
    expect(cache.get("t", 1030, 30)).toBe("expired");
    // An expired entry is dropped, not kept for the next lookup.
    expect(cache.size).toBe(0);
    expect(cache.get("t", 0, 30)).toBeUndefined();
  });

  it("is bounded: when full, the entry stored longest ago goes first", () => {
    const cache = new VerifiedTokenCache(3);
    for (const t of ["a", "b", "c", "d"]) cache.set(t, claims(5000));
    expect(cache.size).toBe(3);
    expect(cache.get("a", 0, 0)).toBeUndefined();
    expect(cache.get("d", 0, 0)).toMatchObject({ exp: 5000 });
    cache.set("d", claims(6000));
    expect(cache.size).toBe(3);
    expect(cache.get("b", 0, 0)).toMatchObject({ exp: 5000 });
  });

  it("with 0 entries holds nothing, and refuses a negative or fractional bound", () => {
    const off = new VerifiedTokenCache(0);
    off.set("a", claims(5000));
    expect(off.get("a", 0, 0)).toBeUndefined();
    expect(() => new VerifiedTokenCache(-1)).toThrow(RangeError);
    expect(() => new VerifiedTokenCache(1.5)).toThrow(RangeError);
  });

  it("freezes what it holds, so one request cannot change the claims the next one sees", () => {
    const cache = new VerifiedTokenCache(1);
    cache.set("a", claims(5000));
    const held = cache.get("a", 0, 0) as AccessTokenClaims;
    expect(() => (held.authorities as string[]).push("ROLE_ADMIN")).toThrow(TypeError);
    expect(Object.isFrozen(held)).toBe(true);
  });
});
