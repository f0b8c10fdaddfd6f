import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import type { ManualClock } from "../../kernel/clock.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { InMemoryRefreshTokenStore } from "./in-memory-refresh-token-store.js";
import { hashRefreshToken, type RefreshTokenStore } from "./refresh-token-store.js";
import { REFRESH_RACE_WINDOW_MS, TokenService } from "./token-service.js";
import { createTokenServiceFixture, rejectionCode } from "./token-service.test-support.js";

const SECOND = 1000;
const ACCESS_TTL = 15 * 60 * SECOND;

describe("TokenService", () => {
  describe("issue and authenticate", () => {
    it("round-trips: the access token proves the same user, as a bearer authentication", async () => {
      const { service, alice, clock } = await createTokenServiceFixture();
      const pair = await service.issue(alice);
      const auth = await service.authenticate(pair.accessToken);
      const authTime = Math.floor(alice.authenticatedAt / 1000) * 1000;
      expect(auth).toEqual({
        userId: "user-alice",
        username: "alice",
        authorities: ["ROLE_USER"],
        method: "bearer",
        authenticatedAt: authTime,
        // Each factor keeps the time it was proved (amr_times), to the second.
        factors: [
          { type: "pwd", at: Math.floor(alice.factors[0]!.at / 1000) * 1000 },
          { type: "otp", at: Math.floor(alice.factors[1]!.at / 1000) * 1000 },
        ],
        tokenId: expect.any(String),
        familyId: expect.any(String),
        originalMethod: "rest",
        expiresAt: Math.floor(clock.now() / 1000) * 1000 + ACCESS_TTL,
      });
    });

    it("writes the documented header and claims, times from the Clock", async () => {
      const { service, alice, clock, keys } = await createTokenServiceFixture();
      clock.advance(1234);
      const pair = await service.issue({ ...alice, factors: [...alice.factors, { type: "pwd", at: 0 }] });
      expect(pair).toMatchObject({ tokenType: "Bearer", expiresIn: 900, refreshExpiresIn: 7 * 86_400 });
      expect(decodeProtectedHeader(pair.accessToken)).toEqual({ alg: "ES256", kid: keys.kid, typ: "at+jwt" });
      const iat = Math.floor(clock.now() / 1000);
      expect(decodeJwt(pair.accessToken)).toEqual({
        iss: "platform",
        aud: "platform-api",
        sub: "user-alice",
        preferred_username: "alice",
        authorities: ["ROLE_USER"],
        auth_time: Math.floor(alice.authenticatedAt / 1000),
        amr: ["pwd", "otp"],
        amr_times: {
          pwd: Math.floor(alice.factors[0]!.at / 1000),
          otp: Math.floor(alice.factors[1]!.at / 1000),
        },
        auth_method: "rest",
        // The sign-in (refresh-token family) the token belongs to: revoking it refuses the token.
        sid: "id-1",
        jti: "id-2",
        iat,
        exp: iat + 900,
      });
      expect((await service.authenticate(pair.accessToken)).tokenId).toBe("id-2");
    });

    it("stores only the hash of the opaque refresh token, in a new family per sign-in", async () => {
      const { service, alice, refreshTokens } = await createTokenServiceFixture();
      const first = await service.issue(alice);
      const second = await service.issue(alice);
      expect(first.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const record = await refreshTokens.findByHash(hashRefreshToken(first.refreshToken));
      expect(record).toMatchObject({ userId: "user-alice", status: "active", version: 1 });
      expect(JSON.stringify(record)).not.toContain(first.refreshToken);
      const other = await refreshTokens.findByHash(hashRefreshToken(second.refreshToken));
      expect(other?.familyId).not.toBe(record?.familyId);
    });

    it("keeps the original method when re-issuing for a bearer authentication", async () => {
      const { service, alice } = await createTokenServiceFixture();
      const bearer = await service.authenticate((await service.issue(alice)).accessToken);
      const again = await service.issue(bearer);
      expect(decodeJwt(again.accessToken).auth_method).toBe("rest");
    });

    it("refuses to configure lifetimes under one second", async () => {
      const { options } = await createTokenServiceFixture();
      expect(() => new TokenService({ ...options, accessTokenTtlMs: 999 })).toThrow(/at least 1000 ms/);
      expect(() => new TokenService({ ...options, refreshTokenTtlMs: 0 })).toThrow(/at least 1000 ms/);
      expect(() => new TokenService({ ...options, clockSkewMs: -1 })).toThrow(/clockSkewMs/);
    });
  });

  describe("expiry", () => {
    it("accepts a token until exp plus the clock skew, then says TOKEN_EXPIRED", async () => {
      const { service, alice, clock } = await createTokenServiceFixture();
      clock.set(Date.UTC(2026, 0, 1, 12));
      const pair = await service.issue(alice);
      clock.advance(ACCESS_TTL + 29 * SECOND);
      await expect(service.authenticate(pair.accessToken)).resolves.toMatchObject({ username: "alice" });
      clock.advance(SECOND);
      const error = await service.authenticate(pair.accessToken).catch((e: unknown) => e);
      expect(isPlatformError(error) && error.code).toBe("TOKEN_EXPIRED");
      expect((error as Error).message).toBe("Access token expired");
      expect((error as Error).cause).toBeDefined();
    });

    it("refuses a refresh token from its expiry on", async () => {
      const { service, alice, clock } = await createTokenServiceFixture();
      const pair = await service.issue(alice);
      clock.advance(7 * 86_400 * SECOND);
      expect(await rejectionCode(service.refresh(pair.refreshToken))).toBe("INVALID_TOKEN");
    });
  });

  describe("refresh", () => {
    it("rotates: a new pair in the same family with the original sign-in facts", async () => {
      const { service, alice, clock, refreshTokens } = await createTokenServiceFixture();
      const first = await service.issue(alice);
      clock.advance(10 * 60 * SECOND);
      const second = await service.refresh(first.refreshToken);
      expect(second.refreshToken).not.toBe(first.refreshToken);
      expect(second.accessToken).not.toBe(first.accessToken);
      const [a, b] = [decodeJwt(first.accessToken), decodeJwt(second.accessToken)];
      expect(b).toMatchObject({
        sub: a.sub,
        preferred_username: a.preferred_username,
        authorities: a.authorities,
        auth_time: a.auth_time,
        amr: a.amr,
        auth_method: a.auth_method,
        iat: Math.floor(clock.now() / 1000),
      });
      expect(b.jti).not.toBe(a.jti);
      const [old, fresh] = await Promise.all([
        refreshTokens.findByHash(hashRefreshToken(first.refreshToken)),
        refreshTokens.findByHash(hashRefreshToken(second.refreshToken)),
      ]);
      expect(old).toMatchObject({ status: "rotated", version: 2 });
      expect(fresh).toMatchObject({ status: "active", familyId: old?.familyId });
      await expect(service.authenticate(second.accessToken)).resolves.toMatchObject({ username: "alice" });
      // Sliding window: the rotated token gets a full lifetime from now.
      expect(fresh?.expiresAt).toBe(clock.now() + 7 * 86_400 * SECOND);
    });

    it("detects reuse of a rotated token and revokes the whole family, newest token included", async () => {
      const { service, alice, audit, clock } = await createTokenServiceFixture();
      const unrelated = await service.issue(alice);
      const first = await service.issue(alice);
      const second = await service.refresh(first.refreshToken);
      const third = await service.refresh(second.refreshToken);
      // Past the race window: presenting a spent token now is reuse, not a lost race.
      clock.advance(REFRESH_RACE_WINDOW_MS);
      expect(await rejectionCode(service.refresh(first.refreshToken))).toBe("INVALID_TOKEN");
      expect(await rejectionCode(service.refresh(third.refreshToken))).toBe("INVALID_TOKEN");
      expect(await rejectionCode(service.refresh(second.refreshToken))).toBe("INVALID_TOKEN");
      expect(audit).toEqual([
        expect.objectContaining({ type: "auth.token.refresh-reuse", principal: "alice", outcome: "denied" }),
      ]);
      await expect(service.refresh(unrelated.refreshToken)).resolves.toMatchObject({ tokenType: "Bearer" });
    });

    it("lets exactly one of two concurrent refreshes of one token succeed", async () => {
      const { service, alice } = await createTokenServiceFixture();
      const pair = await service.issue(alice);
      const results = await Promise.allSettled([
        service.refresh(pair.refreshToken),
        service.refresh(pair.refreshToken),
      ]);
      const won = results.filter((r) => r.status === "fulfilled");
      expect(won).toHaveLength(1);
      const lost = results.find((r) => r.status === "rejected");
      expect(isPlatformError(lost?.reason) && lost.reason.code).toBe("REFRESH_TOKEN_RACE_LOST");
      // Losing a race is not reuse: the winner's session lives on.
      const winner = won[0]?.status === "fulfilled" ? won[0].value : undefined;
      await expect(service.refresh(winner?.refreshToken ?? "")).resolves.toMatchObject({
        tokenType: "Bearer",
      });
    });

    it("does not leave a live token behind when the family is revoked during the rotation", async () => {
      let revokeDuringCreate = false;
      let inner: InMemoryRefreshTokenStore | undefined;
      const racing = (clock: ManualClock): RefreshTokenStore => {
        inner = new InMemoryRefreshTokenStore({ clock });
        const store = inner;
        return {
          create: async (record) => {
            if (revokeDuringCreate) await store.revokeFamily(record.familyId);
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
      revokeDuringCreate = true;
      expect(await rejectionCode(service.refresh(pair.refreshToken))).toBe("INVALID_TOKEN");
      const family = await inner?.findByHash(hashRefreshToken(pair.refreshToken));
      expect(family?.status).toBe("revoked");
      expect(inner?.size()).toBe(2);
      expect(await inner?.revokeFamily(family?.familyId ?? "")).toBe(0);
    });
  });

  describe("revoke", () => {
    it("refuses both tokens afterwards, and leaves other sign-ins alone", async () => {
      const { service, alice } = await createTokenServiceFixture();
      const other = await service.issue(alice);
      const pair = await service.issue(alice);
      const refreshed = await service.refresh(pair.refreshToken);
      expect(
        await service.revoke({ refreshToken: refreshed.refreshToken, accessToken: refreshed.accessToken }),
      ).toEqual({
        refreshTokenRevoked: true,
        accessTokenRevoked: true,
      });
      expect(await rejectionCode(service.refresh(refreshed.refreshToken))).toBe("INVALID_TOKEN");
      expect(await rejectionCode(service.authenticate(refreshed.accessToken))).toBe("INVALID_TOKEN");
      await expect(service.authenticate(other.accessToken)).resolves.toMatchObject({ username: "alice" });
      await expect(service.refresh(other.refreshToken)).resolves.toMatchObject({ tokenType: "Bearer" });
    });

    it("keeps the jti denied through the clock-skew window, then forgets it", async () => {
      const { service, alice, clock, revokedAccessTokens } = await createTokenServiceFixture();
      const pair = await service.issue(alice);
      await service.revoke({ accessToken: pair.accessToken });
      clock.advance(ACCESS_TTL + 29 * SECOND);
      expect(await rejectionCode(service.authenticate(pair.accessToken))).toBe("INVALID_TOKEN");
      clock.advance(SECOND);
      expect(await rejectionCode(service.authenticate(pair.accessToken))).toBe("TOKEN_EXPIRED");
      expect(await revokedAccessTokens.isRevoked(decodeJwt(pair.accessToken).jti ?? "")).toBe(false);
    });

    it("ignores unknown, invalid and expired tokens without throwing", async () => {
      const { service, alice, clock } = await createTokenServiceFixture();
      const pair = await service.issue(alice);
      clock.advance(ACCESS_TTL + 31 * SECOND);
      for (const tokens of [
        {},
        { refreshToken: "unknown", accessToken: "garbage" },
        { refreshToken: "", accessToken: "" },
        { accessToken: pair.accessToken },
        { refreshToken: "x".repeat(10_000), accessToken: "a.b.c" },
      ]) {
        expect(await service.revoke(tokens)).toEqual({
          refreshTokenRevoked: false,
          accessTokenRevoked: false,
        });
      }
    });

    it("signs a user out everywhere: every refresh token family", async () => {
      const { service, alice } = await createTokenServiceFixture();
      const a = await service.issue(alice);
      const b = await service.issue(alice);
      const bob = await service.issue({ ...alice, userId: "user-bob", username: "bob" });
      expect(await service.revokeAllForUser("user-alice")).toBe(2);
      expect(await rejectionCode(service.refresh(a.refreshToken))).toBe("INVALID_TOKEN");
      expect(await rejectionCode(service.refresh(b.refreshToken))).toBe("INVALID_TOKEN");
      await expect(service.refresh(bob.refreshToken)).resolves.toMatchObject({ tokenType: "Bearer" });
    });
  });

  describe.each(["EdDSA", "HS256"] as const)("with %s", (algorithm) => {
    it("round-trips and refreshes", async () => {
      const { service, alice } = await createTokenServiceFixture({ algorithm });
      const pair = await service.issue(alice);
      expect(decodeProtectedHeader(pair.accessToken).alg).toBe(algorithm);
      await expect(service.authenticate(pair.accessToken)).resolves.toMatchObject({ username: "alice" });
      const next = await service.refresh(pair.refreshToken);
      await expect(service.authenticate(next.accessToken)).resolves.toMatchObject({ username: "alice" });
    });
  });
});
