import { describe, expect, it } from "vitest";
import { PlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../authentication/authentication.js";
import { currentAuthentication } from "../authentication/authentication.js";
import { user } from "../authentication/authentication.fixture.js";
import type { SubjectStatusQuery } from "../authentication/subject-status-check.js";
import { anyRequest } from "../../web/request-matcher.js";
import { SecurityFilterChain } from "../chain/security-filter-chain.js";
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
          // biome-ignore lint/suspicious/noThenProperty: the point of the test is a thenable.
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
