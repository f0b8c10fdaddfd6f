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

/** What SecurityContextFilter does for one bearer request: the inline answer, else `authenticate`. */
async function oneBearerRequest(service: TokenService, token: string): Promise<void> {
  // (optional chaining: the same test runs on 800fce0, before authenticateAtOnce, and passes there)
  const atOnce = (service as { authenticateAtOnce?: (t: string) => unknown }).authenticateAtOnce;
  if (atOnce?.call(service, token) === undefined) await service.authenticate(token);
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
    // authenticateAtOnce asks, drops the answer, then authenticate asks again: two queries per request.
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
