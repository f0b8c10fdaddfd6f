import { describe, expect, it } from "vitest";
import type { RevokedAccessTokenStore } from "./revoked-token-store.js";
import { createTokenServiceFixture } from "./token-service.test-support.js";
import { TokenService } from "./token-service.js";

/** A promise that records whether anyone subscribed to it (a dropped one would go unhandled on rejection). */
class Watched<T> extends Promise<T> {
  observed = false;
  // biome-ignore lint/suspicious/noThenProperty: the point is to see who subscribes
  override then<A = T, B = never>(
    ok?: ((value: T) => A | PromiseLike<A>) | null,
    ko?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.observed = true;
    return super.then(ok, ko);
  }
}

/**
 * A deny list as the MongoDB adapter is: every `isRevoked` is one database query answering later (a
 * promise that is never the in-memory store's shared NOT_REVOKED).
 */
function databaseLikeDenyList(inner: RevokedAccessTokenStore) {
  const answers: Watched<boolean>[] = [];
  const store: RevokedAccessTokenStore = {
    revoke: (jti, at) => inner.revoke(jti, at),
    revokeFamily: (sid, at) => inner.revokeFamily(sid, at),
    isRevoked(jti, sid) {
      const answer = new Watched<boolean>((resolve, reject) =>
        inner.isRevoked(jti, sid).then(resolve, reject),
      );
      answers.push(answer);
      return answer;
    },
  };
  return { store, answers };
}

/** What SecurityContextFilter does for one bearer request: one `authenticateOrPending`, waited on when pending. */
async function oneBearerRequest(service: TokenService, token: string): Promise<void> {
  await service.authenticateOrPending(token);
}

describe("TokenService with a deny list that answers later (a database adapter)", () => {
  it("asks the deny list once per bearer request, not twice", async () => {
    const f = await createTokenServiceFixture();
    const { store, answers } = databaseLikeDenyList(f.revokedAccessTokens);
    const service = new TokenService({ ...f.options, revokedAccessTokens: store });
    const { accessToken } = await service.issue(f.alice);
    await service.authenticate(accessToken); // verified: now held by the verified-token cache
    answers.length = 0;
    await oneBearerRequest(service, accessToken);
    // Asked once (a dropped answer and a second query were the regression the attack found).
    expect(answers.length).toBe(1);
  });

  it("never drops a deny-list answer (a rejected one, e.g. the database unreachable, would crash the process)", async () => {
    const f = await createTokenServiceFixture();
    const { store, answers } = databaseLikeDenyList(f.revokedAccessTokens);
    const service = new TokenService({ ...f.options, revokedAccessTokens: store });
    const { accessToken } = await service.issue(f.alice);
    await service.authenticate(accessToken);
    answers.length = 0;
    await oneBearerRequest(service, accessToken);
    // Node's default (--unhandled-rejections=throw) ends the process on a dropped rejected promise.
    expect(answers.map((a) => a.observed)).toEqual(answers.map(() => true));
  });
});

describe("TokenService.authenticateOrPending with a deny list that answers later", () => {
  it("answers a rejection when the deny list's query fails, and the rejection is the caller's", async () => {
    const f = await createTokenServiceFixture();
    const down: RevokedAccessTokenStore = {
      revoke: (jti, at) => f.revokedAccessTokens.revoke(jti, at),
      revokeFamily: (sid, at) => f.revokedAccessTokens.revokeFamily(sid, at),
      isRevoked: () => Promise.reject(new Error("database unreachable")),
    };
    const up = new TokenService({ ...f.options });
    const { accessToken } = await up.issue(f.alice);
    const service = new TokenService({ ...f.options, revokedAccessTokens: down });
    await expect(service.authenticate(accessToken)).rejects.toThrow("database unreachable");
    // Verified and held now? No: the deny list never answered, so nothing was cached as accepted...
    // ...but the signature check did cache the claims; the deny list is still asked, and its failure
    // is the answer, never an unhandled rejection.
    const answered = service.authenticateOrPending(accessToken);
    expect(answered).toBeInstanceOf(Promise);
    await expect(answered).rejects.toThrow("database unreachable");
    // A store that throws instead of rejecting answers a rejection too.
    const throwing = new TokenService({
      ...f.options,
      revokedAccessTokens: {
        ...down,
        isRevoked: () => {
          throw new Error("driver bug");
        },
      },
    });
    await expect(throwing.authenticate(accessToken)).rejects.toThrow("driver bug");
    await expect(throwing.authenticateOrPending(accessToken)).rejects.toThrow("driver bug");
  });
});
