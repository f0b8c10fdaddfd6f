import { describe, expect, it } from "vitest";
import { PlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../authentication/authentication.js";
import { currentAuthentication } from "../authentication/authentication.js";
import { user } from "../authentication/authentication.fixture.js";
import type { SubjectStatusQuery } from "../authentication/subject-status-check.js";
import { anyRequest } from "../../web/request-matcher.js";
import { SecurityFilterChain } from "../chain/security-filter-chain.js";
import {
  type AccountStanding,
  STANDING_DOES_NOT_HOLD,
  STANDING_HOLDS,
} from "../users/standing/account-standing.js";
import { DONE } from "../../web/request-pipeline.js";
import { NO_SESSION } from "../session/session-manager.js";
import { type BearerAuthenticator, SecurityContextFilter } from "./security-context-filter.js";
import {
  NullSecurityContextRepository,
  type SecurityContextRepository,
} from "./security-context-repository.js";

const alice = user("u1", "alice");

function holding(authentication: Authentication | undefined): SecurityContextRepository {
  return {
    name: "fixed",
    load: async () => authentication,
    save: async () => {},
    clear: async () => {},
  };
}

const bearer: BearerAuthenticator = {
  authenticate: async (token) => {
    if (token !== "good") throw new PlatformError("INVALID_TOKEN", "Invalid access token");
    return alice;
  },
};

function exchange(method: string, url: string, headers: Record<string, string> = {}): HttpExchange {
  return new HttpExchange({ method, url, headers, remoteAddress: "203.0.113.1", readBody: async () => "" });
}

// The `request` checkpoint: the gate sees every authenticated request, whatever comes after it.
function run(repository: SecurityContextRepository, refuse: boolean) {
  const asked: SubjectStatusQuery[] = [];
  // The chain's checkpoint right after its security context (the pipeline's zero-trust-checkpoint place).
  const chain = new SecurityFilterChain(
    "c",
    0,
    0,
    anyRequest(),
    [new SecurityContextFilter(repository, bearer)],
    {
      gate: async (q) => {
        asked.push(q);
        if (refuse) throw new PlatformError("ZERO_TRUST_BLOCKED", "Access is blocked");
      },
      exemptPosts: new Set(["/logout"]),
    },
  );
  return {
    asked,
    async through(x: HttpExchange): Promise<boolean> {
      let reached = false;
      await chain.run(x, async () => {
        reached = true;
      });
      return reached;
    },
  };
}

describe("A chain's request checkpoint, right after its security context", () => {
  it("asks the gate for a session's authentication and stops the request when it refuses", async () => {
    const { asked, through } = run(holding(alice), true);
    const x = exchange("POST", "/webauthn/register/options");
    await expect(through(x)).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
    expect(asked).toEqual([{ checkpoint: "request", authentication: alice, exchange: x }]);
  });

  it("takes a repository's answer at hand, a promise or another thenable alike", async () => {
    const answers: SecurityContextRepository["load"][] = [
      () => alice,
      () => Promise.resolve(alice),
      // A thenable that is not a native promise (out of the port's type: a JavaScript host's).
      () =>
        ({
          // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose (a host's own promise type)
          then: (resolve: (a: Authentication) => void) => resolve(alice),
        }) as unknown as Promise<Authentication>,
    ];
    for (const load of answers) {
      const { asked, through } = run({ ...holding(alice), load }, true);
      const x = exchange("GET", "/account");
      await expect(through(x)).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
      expect(asked).toEqual([{ checkpoint: "request", authentication: alice, exchange: x }]);
    }
    const { asked, through } = run({ ...holding(alice), load: () => undefined }, true);
    expect(await through(exchange("GET", "/account"))).toBe(true);
    expect(asked).toEqual([]);
  });

  it("asks the gate for a bearer's authentication on a stateless chain", async () => {
    const { asked, through } = run(new NullSecurityContextRepository(), true);
    const x = exchange("GET", "/api/data", { authorization: "Bearer good" });
    await expect(through(x)).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
    expect(asked.map((q) => [q.checkpoint, q.authentication.userId])).toEqual([["request", "u1"]]);
  });

  it("lets the chain's logout through unasked (a blocked user can always sign out)", async () => {
    const { asked, through } = run(holding(alice), true);
    const x = exchange("POST", "/logout");
    expect(await through(x)).toBe(true);
    expect(currentAuthentication(x)).toBe(alice);
    expect(asked).toEqual([]);
    // Only the logout itself: another method on the same path is checked.
    await expect(through(exchange("GET", "/logout"))).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
  });

  it("does not ask for an anonymous request, and goes on when the gate lets the user through", async () => {
    const anonymous = run(holding(undefined), true);
    expect(await anonymous.through(exchange("GET", "/passkeys"))).toBe(true);
    expect(anonymous.asked).toEqual([]);
    const allowed = run(holding(alice), false);
    expect(await allowed.through(exchange("GET", "/passkeys"))).toBe(true);
    expect(allowed.asked).toHaveLength(1);
  });
});

describe("SecurityContextFilter's answers without waiting", () => {
  /**
   * A bearer authenticator whose `authenticateOrPending` answers `known` at once for "good", else the
   * promise of `authenticate`'s judgement; `authenticate` itself is never called by the filter then.
   */
  const atOnce = (
    known: Authentication | undefined,
  ): BearerAuthenticator & { later: number; direct: number } => {
    const b = {
      later: 0,
      direct: 0,
      authenticate: async (token: string) => {
        b.direct++;
        return bearer.authenticate(token);
      },
      authenticateOrPending: (token: string) => {
        if (token === "good" && known !== undefined) return known;
        b.later++;
        return bearer.authenticate(token);
      },
    };
    return b;
  };
  const standing = (answer: Promise<boolean>): AccountStanding => ({
    holds: () => answer,
    changed: async () => {},
  });
  const next = (seen: { calls: number }) => () => {
    seen.calls++;
    return DONE;
  };
  const bearerRequest = (token: string) => exchange("GET", "/x", { authorization: `Bearer ${token}` });

  it("goes on at once with a token vouched for and an account that stands, handing next's answer back as it is", async () => {
    const b = atOnce(alice);
    const filter = new SecurityContextFilter(new NullSecurityContextRepository(), b, {
      standing: standing(STANDING_HOLDS),
    });
    const seen = { calls: 0 };
    const x = bearerRequest("good");
    expect(filter.filter(x, next(seen))).toBe(DONE);
    expect(seen.calls).toBe(1);
    expect([b.later, b.direct]).toEqual([0, 0]);
    expect(currentAuthentication(x)).toBe(alice);
  });

  it("refuses a token vouched for at once whose account no longer stands, asking the standing once", async () => {
    let asked = 0;
    const filter = new SecurityContextFilter(new NullSecurityContextRepository(), atOnce(alice), {
      standing: {
        holds: () => {
          asked++;
          return STANDING_DOES_NOT_HOLD;
        },
        changed: async () => {},
      },
    });
    const seen = { calls: 0 };
    const x = bearerRequest("good");
    await expect(filter.filter(x, next(seen))).rejects.toMatchObject({ code: "INVALID_TOKEN" });
    expect([seen.calls, asked, currentAuthentication(x)]).toEqual([0, 1, undefined]);
    // A standing that must be looked up is waited on, and its "no" refuses too.
    const slow = new SecurityContextFilter(new NullSecurityContextRepository(), atOnce(alice), {
      standing: standing(new Promise((r) => setTimeout(() => r(false), 1))),
    });
    await expect(slow.filter(bearerRequest("good"), next(seen))).rejects.toMatchObject({
      code: "INVALID_TOKEN",
    });
    expect(seen.calls).toBe(0);
  });

  it("waits on the judgement of a token it cannot vouch for at once (one call), and refuses a bad one as a rejection", async () => {
    const b = atOnce(undefined);
    const filter = new SecurityContextFilter(new NullSecurityContextRepository(), b);
    const seen = { calls: 0 };
    await filter.filter(bearerRequest("good"), next(seen));
    expect([seen.calls, b.later, b.direct]).toEqual([1, 1, 0]);
    // Without authenticateOrPending, authenticate is asked (once).
    const plain = { ...b, authenticateOrPending: undefined };
    await new SecurityContextFilter(new NullSecurityContextRepository(), plain).filter(
      bearerRequest("good"),
      next(seen),
    );
    expect([seen.calls, b.direct]).toEqual([2, 1]);
    await expect(filter.filter(bearerRequest("bad"), next(seen))).rejects.toMatchObject({
      code: "INVALID_TOKEN",
    });
    // "Bearer" with no token: refused as a rejection, never thrown at the caller.
    const empty = filter.filter(exchange("GET", "/x", { authorization: "Bearer " }), next(seen));
    await expect(empty).rejects.toMatchObject({ code: "INVALID_TOKEN" });
    expect(seen.calls).toBe(2);
  });

  it("goes on at once with an answer at hand (none, or a session's), and waits on a pending load", async () => {
    const seen = { calls: 0 };
    // The session repository answers at hand once the request's session is known (or there is none).
    const atHand = (a: Authentication | undefined): SecurityContextRepository => ({
      ...holding(undefined),
      load: () => a,
    });
    const x = exchange("GET", "/x");
    expect(new SecurityContextFilter(atHand(undefined), undefined).filter(x, next(seen))).toBe(DONE);
    expect(currentAuthentication(x)).toBeUndefined();
    const standsFilter = new SecurityContextFilter(atHand(alice), undefined, {
      standing: standing(STANDING_HOLDS),
    });
    const y = exchange("GET", "/x");
    expect(standsFilter.filter(y, next(seen))).toBe(DONE);
    expect(currentAuthentication(y)).toBe(alice);
    // A fallen standing ends the session (the repository's clear) and goes on anonymous.
    let cleared = 0;
    const fallen = new SecurityContextFilter(
      { ...atHand(alice), clear: async () => void cleared++ },
      undefined,
      { standing: standing(STANDING_DOES_NOT_HOLD) },
    );
    const z = exchange("GET", "/x");
    await fallen.filter(z, next(seen));
    expect([cleared, currentAuthentication(z)]).toEqual([1, undefined]);
    // The shared "no session" promise, and a repository's pending load, are waited on.
    const w = exchange("GET", "/x");
    await new SecurityContextFilter({ ...holding(undefined), load: () => NO_SESSION }, undefined).filter(
      w,
      next(seen),
    );
    const v = exchange("GET", "/x");
    await new SecurityContextFilter(holding(alice), undefined).filter(v, next(seen));
    expect([seen.calls, currentAuthentication(w), currentAuthentication(v)]).toEqual([5, undefined, alice]);
  });
});
