import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import type { ManualClock } from "../../kernel/clock.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { InMemoryRefreshTokenStore } from "./in-memory-refresh-token-store.js";
import { hashRefreshToken, type RefreshTokenStore } from "./refresh-token-store.js";
import { REFRESH_RACE_WINDOW_MS, TokenService } from "./token-service.js";
import { createTokenServiceFixture, rejectionCode } from "./token-service.test-support.js";

const ACCESS_TTL_MS = 15 * 60_000;
const SKEW_MS = 30_000;

// Issue #12, items 9 and 10: refresh races and the revocation of a sign-in (refresh-token family).
describe("TokenService: refresh races", () => {
  it("answers a refresh of a token rotated a moment ago with REFRESH_TOKEN_RACE_LOST and keeps the family", async () => {
    const { service, alice, clock, audit } = await createTokenServiceFixture();
    const pair = await service.issue(alice);
    const winner = await service.refresh(pair.refreshToken);
    clock.advance(REFRESH_RACE_WINDOW_MS - 1);
    expect(await rejectionCode(service.refresh(pair.refreshToken))).toBe("REFRESH_TOKEN_RACE_LOST");
    expect(audit.map((e) => e.type)).toEqual(["auth.token.refresh-race"]);
    // Nothing was revoked: the winner's tokens keep working, its refresh token rotates again.
    await expect(service.authenticate(winner.accessToken)).resolves.toMatchObject({ username: "alice" });
    await expect(service.refresh(winner.refreshToken)).resolves.toMatchObject({ tokenType: "Bearer" });
  });

  it("lets exactly one of 50 parallel refreshes win; the 49 others lose the race and change nothing", async () => {
    const { service, alice } = await createTokenServiceFixture();
    const pair = await service.issue(alice);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => service.refresh(pair.refreshToken)),
    );
    const won = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    expect(won).toHaveLength(1);
    const codes = results.flatMap((r) =>
      r.status === "rejected" ? [isPlatformError(r.reason) ? r.reason.code : String(r.reason)] : [],
    );
    expect(codes).toEqual(Array.from({ length: 49 }, () => "REFRESH_TOKEN_RACE_LOST"));
    const next = await service.refresh(won[0]!.refreshToken);
    await expect(service.authenticate(next.accessToken)).resolves.toMatchObject({ username: "alice" });
  });

  it("treats the same token after the window as reuse: the family and all its access tokens are refused", async () => {
    const { service, alice, clock, audit } = await createTokenServiceFixture();
    const other = await service.issue(alice);
    const pair = await service.issue(alice);
    const second = await service.refresh(pair.refreshToken);
    clock.advance(REFRESH_RACE_WINDOW_MS);
    expect(await rejectionCode(service.refresh(pair.refreshToken))).toBe("INVALID_TOKEN");
    expect(audit.map((e) => e.type)).toEqual(["auth.token.refresh-reuse"]);
    expect(await rejectionCode(service.refresh(second.refreshToken))).toBe("INVALID_TOKEN");
    // Every access token issued from the family is denied, the newest one included.
    expect(await rejectionCode(service.authenticate(pair.accessToken))).toBe("INVALID_TOKEN");
    expect(await rejectionCode(service.authenticate(second.accessToken))).toBe("INVALID_TOKEN");
    // Another sign-in of the same user lives on.
    await expect(service.authenticate(other.accessToken)).resolves.toMatchObject({ username: "alice" });
    await expect(service.refresh(other.refreshToken)).resolves.toMatchObject({ tokenType: "Bearer" });
  });

  it("gives a stolen token replayed within the window nothing, and revokes the family when it comes back later", async () => {
    const { service, alice, clock } = await createTokenServiceFixture();
    const pair = await service.issue(alice);
    const legit = await service.refresh(pair.refreshToken);
    clock.advance(1000);
    expect(await rejectionCode(service.refresh(pair.refreshToken))).toBe("REFRESH_TOKEN_RACE_LOST");
    clock.advance(REFRESH_RACE_WINDOW_MS);
    expect(await rejectionCode(service.refresh(pair.refreshToken))).toBe("INVALID_TOKEN");
    expect(await rejectionCode(service.refresh(legit.refreshToken))).toBe("INVALID_TOKEN");
    expect(await rejectionCode(service.authenticate(legit.accessToken))).toBe("INVALID_TOKEN");
  });

  it("refuses a negative race window", async () => {
    const { options } = await createTokenServiceFixture();
    expect(() => new TokenService({ ...options, refreshRaceWindowMs: -1 })).toThrow(/refreshRaceWindowMs/);
    expect(() => new TokenService({ ...options, refreshRaceWindowMs: Number.NaN })).toThrow(
      /refreshRaceWindowMs/,
    );
  });
});

describe("TokenService: revoking a sign-in", () => {
  it("revokes the family of a bearer-only revocation (logout): refresh and every access token of it refused", async () => {
    const { service, alice } = await createTokenServiceFixture();
    const other = await service.issue(alice);
    const pair = await service.issue(alice);
    const refreshed = await service.refresh(pair.refreshToken);
    expect(await service.revoke({ accessToken: refreshed.accessToken })).toEqual({
      refreshTokenRevoked: false,
      accessTokenRevoked: true,
    });
    expect(await rejectionCode(service.refresh(refreshed.refreshToken))).toBe("INVALID_TOKEN");
    expect(await rejectionCode(service.authenticate(refreshed.accessToken))).toBe("INVALID_TOKEN");
    expect(await rejectionCode(service.authenticate(pair.accessToken))).toBe("INVALID_TOKEN");
    await expect(service.authenticate(other.accessToken)).resolves.toMatchObject({ username: "alice" });
    await expect(service.refresh(other.refreshToken)).resolves.toMatchObject({ tokenType: "Bearer" });
  });

  it("refuses the family's access tokens when only the refresh token is revoked", async () => {
    const { service, alice } = await createTokenServiceFixture();
    const pair = await service.issue(alice);
    const refreshed = await service.refresh(pair.refreshToken);
    await service.revoke({ refreshToken: refreshed.refreshToken });
    expect(await rejectionCode(service.authenticate(pair.accessToken))).toBe("INVALID_TOKEN");
    expect(await rejectionCode(service.authenticate(refreshed.accessToken))).toBe("INVALID_TOKEN");
  });

  it("keeps the family denied until its last access token could expire, then forgets it", async () => {
    const { service, alice, clock, revokedAccessTokens } = await createTokenServiceFixture();
    const pair = await service.issue(alice);
    clock.advance(60_000);
    const refreshed = await service.refresh(pair.refreshToken);
    await service.revoke({ refreshToken: refreshed.refreshToken });
    clock.advance(ACCESS_TTL_MS + SKEW_MS - 1000);
    expect(await rejectionCode(service.authenticate(refreshed.accessToken))).toBe("INVALID_TOKEN");
    clock.advance(1000);
    expect(await rejectionCode(service.authenticate(refreshed.accessToken))).toBe("TOKEN_EXPIRED");
    expect(await revokedAccessTokens.isRevoked("any", String(decodeJwt(refreshed.accessToken).sid))).toBe(
      false,
    );
  });

  it("continues a bearer sign-in's family when re-issuing (step-up), so revoking it covers the new pair", async () => {
    const { service, alice } = await createTokenServiceFixture();
    const pair = await service.issue(alice);
    const bearer = await service.authenticate(pair.accessToken);
    const upgraded = await service.issue({ ...bearer, factors: [...bearer.factors] });
    const again = await service.authenticate(upgraded.accessToken);
    expect(again.familyId).toBe(bearer.familyId);
    await service.revoke({ accessToken: pair.accessToken });
    expect(await rejectionCode(service.authenticate(upgraded.accessToken))).toBe("INVALID_TOKEN");
    expect(await rejectionCode(service.refresh(upgraded.refreshToken))).toBe("INVALID_TOKEN");
  });

  it("refuses to re-issue for a bearer sign-in whose token or family was revoked", async () => {
    const { service, alice } = await createTokenServiceFixture();
    const a = await service.authenticate((await service.issue(alice)).accessToken);
    const b = await service.issue(alice);
    const bearerB = await service.authenticate(b.accessToken);
    await service.revoke({ refreshToken: b.refreshToken });
    expect(await rejectionCode(service.issue(bearerB))).toBe("INVALID_TOKEN");
    const c = await service.issue(alice);
    const bearerC = await service.authenticate(c.accessToken);
    await service.revoke({ accessToken: c.accessToken });
    expect(await rejectionCode(service.issue(bearerC))).toBe("INVALID_TOKEN");
    // A live one is still served.
    await expect(service.issue(a)).resolves.toMatchObject({ tokenType: "Bearer" });
  });

  it("leaves nothing usable when the sign-in is revoked while a bearer re-issue is signing", async () => {
    let during: (() => Promise<unknown>) | undefined;
    let inner: InMemoryRefreshTokenStore | undefined;
    const racing = (clock: ManualClock): RefreshTokenStore => {
      const store = new InMemoryRefreshTokenStore({ clock });
      inner = store;
      return {
        create: async (record) => {
          const run = during;
          during = undefined;
          await run?.();
          return store.create(record);
        },
        findByHash: (hash) => store.findByHash(hash),
        compareAndSetStatus: (id, version, status) => store.compareAndSetStatus(id, version, status),
        rotate: (hash, windowMs) => store.rotate(hash, windowMs),
        revokeFamily: (familyId) => store.revokeFamily(familyId),
        revokeAllForUser: (userId) => store.revokeAllForUser(userId),
      };
    };
    const { service, alice } = await createTokenServiceFixture({ refreshTokens: racing });
    const pair = await service.issue(alice);
    const bearer = await service.authenticate(pair.accessToken);
    during = () => service.revoke({ accessToken: pair.accessToken });
    expect(await rejectionCode(service.issue(bearer))).toBe("INVALID_TOKEN");
    // The refresh token created after the revocation was revoked too.
    expect(inner?.size()).toBe(2);
    expect(await inner?.revokeFamily(bearer.familyId)).toBe(0);
    const old = await inner?.findByHash(hashRefreshToken(pair.refreshToken));
    expect(old?.status).toBe("revoked");
  });
});
