import { describe, expect, it } from "vitest";
import {
  createTokenServiceFixture,
  rejectionCode,
  type TokenServiceFixture,
} from "./token-service.test-support.js";
import { TokenService } from "./token-service.js";
import { VerifiedTokenCache } from "./verified-token-cache.js";

/** The fixture's service rebuilt over the same stores and clock, with the given cache. */
async function withCache(
  cache: VerifiedTokenCache,
): Promise<TokenServiceFixture & { cache: VerifiedTokenCache }> {
  const f = await createTokenServiceFixture();
  return { ...f, service: new TokenService({ ...f.options, verifiedTokens: cache }), cache };
}

const TTL_MS = 15 * 60_000;
const SKEW_MS = 30_000;

// The same story with the cache off and on: every answer must be the same, and with the cache on the
// token really comes from the cache (so these tests fail if the cache ignored expiry or revocation).
describe.each([
  ["without the verified-token cache", 0],
  ["with the verified-token cache", 100],
])("TokenService.authenticate %s", (_name, size) => {
  const outcome = (f: TokenServiceFixture, token: string) =>
    f.service.authenticate(token).then(
      (a) => `ok:${a.username}`,
      (e: unknown) => rejectionCode(Promise.reject(e)),
    );

  it("serves a genuine token until exp + skew and refuses it as TOKEN_EXPIRED from then on (ManualClock)", async () => {
    const f = await withCache(new VerifiedTokenCache(size));
    const { accessToken } = await f.service.issue(f.alice);
    expect(await outcome(f, accessToken)).toBe("ok:alice");
    expect(f.cache.size).toBe(size === 0 ? 0 : 1);
    f.clock.advance(TTL_MS + SKEW_MS - 1000);
    expect(await outcome(f, accessToken)).toBe("ok:alice");
    f.clock.advance(1000);
    expect(await outcome(f, accessToken)).toBe("TOKEN_EXPIRED");
    expect(await outcome(f, accessToken)).toBe("TOKEN_EXPIRED");
    expect(f.cache.size).toBe(0);
  });

  it("refuses a token on the very next request after revoke, after its sign-in ends, and after sign-out everywhere", async () => {
    const f = await withCache(new VerifiedTokenCache(size));
    const one = await f.service.issue(f.alice);
    const two = await f.service.issue(f.alice);
    const three = await f.service.issue(f.alice);
    for (const pair of [one, two, three]) expect(await outcome(f, pair.accessToken)).toBe("ok:alice");

    await f.service.revoke({ accessToken: one.accessToken });
    expect(await outcome(f, one.accessToken)).toBe("INVALID_TOKEN");

    // Logout revokes by refresh token: the family's access tokens go with it.
    await f.service.revoke({ refreshToken: two.refreshToken });
    expect(await outcome(f, two.accessToken)).toBe("INVALID_TOKEN");

    expect(await outcome(f, three.accessToken)).toBe("ok:alice");
    await f.service.revokeAllForUser(f.alice.userId);
    expect(await outcome(f, three.accessToken)).toBe("INVALID_TOKEN");
  });

  it("refuses a tampered copy of a token it holds, and no request can change another's authorities", async () => {
    const f = await withCache(new VerifiedTokenCache(size));
    const { accessToken } = await f.service.issue(f.alice);
    const first = await f.service.authenticate(accessToken);
    // The Authentication is frozen (shared by the requests presenting the token, when cached).
    expect(() => (first.authorities as string[]).push("ROLE_ADMIN")).toThrow(TypeError);
    expect(() => {
      (first as { username: string }).username = "admin";
    }).toThrow(TypeError);
    expect(() => {
      (first.factors[0] as { type: string }).type = "passkey";
    }).toThrow(TypeError);
    expect((await f.service.authenticate(accessToken)).authorities).toEqual(["ROLE_USER"]);
    expect((await f.service.authenticateOrPending(accessToken)).authorities).toEqual(["ROLE_USER"]);
    const [h, p, s] = accessToken.split(".");
    const flipped = `${h}.${p}.${s!.slice(0, -2)}${s!.endsWith("AA") ? "BB" : "AA"}`;
    expect(await outcome(f, flipped)).toBe("INVALID_TOKEN");
  });
  it("answers at once only for a held token authenticate accepts; any other is the same judgement, later", async () => {
    const f = await withCache(new VerifiedTokenCache(size));
    const { accessToken } = await f.service.issue(f.alice);
    const other = await f.service.issue(f.alice);
    /** "at once: <username>", or what the promise came to ("later: ok:<username>" or "later: <code>"). */
    const answer = async (token: string): Promise<string> => {
      const answered = f.service.authenticateOrPending(token);
      if (!(answered instanceof Promise)) return `at once: ${answered.username}`;
      return `later: ${await answered.then(
        (a) => `ok:${a.username}`,
        (e: unknown) => rejectionCode(Promise.reject(e)),
      )}`;
    };
    // Issued is not verified: only a token authenticate verified is held.
    expect(await answer(accessToken)).toBe("later: ok:alice");
    const verified = await f.service.authenticate(accessToken);
    await f.service.authenticate(other.accessToken);
    if (size === 0) expect(await answer(accessToken)).toBe("later: ok:alice");
    else {
      // The same frozen Authentication authenticate answers, shared by every request with the token.
      const atOnce = f.service.authenticateOrPending(accessToken);
      expect(atOnce).toBe(verified);
      expect(await f.service.authenticate(accessToken)).toBe(verified);
      expect(Object.isFrozen(atOnce)).toBe(true);
    }
    const [h, p, s] = accessToken.split(".");
    // A changed signature (never the same text: a signature may already end in "AA").
    expect(await answer(`${h}.${p}.${s!.slice(0, -2)}${s!.endsWith("AA") ? "BB" : "AA"}`)).toBe(
      "later: INVALID_TOKEN",
    );
    // Another string is never the held token: judged later, as authenticate judges it (the filter's
    // header parsing never hands over a trailing space; jose's decoding would accept it).
    expect(await answer(`${accessToken} `)).toMatch(/^later: /);
    await f.service.revoke({ accessToken });
    expect(await answer(accessToken)).toBe("later: INVALID_TOKEN");
    expect(await answer(other.accessToken)).toBe(size === 0 ? "later: ok:alice" : "at once: alice");
    f.clock.advance(TTL_MS + SKEW_MS);
    expect(await answer(other.accessToken)).toBe("later: TOKEN_EXPIRED");
  });
});

describe("TokenService's verified-token cache", () => {
  it("is on by default and stays within its bound", async () => {
    const f = await withCache(new VerifiedTokenCache(2));
    const tokens = [];
    for (let i = 0; i < 5; i++) tokens.push((await f.service.issue(f.alice)).accessToken);
    for (const t of tokens) await f.service.authenticate(t);
    expect(f.cache.size).toBe(2);
    // Evicted tokens are verified again, not refused.
    for (const t of tokens) expect((await f.service.authenticate(t)).username).toBe("alice");
  });
});
