import { describe, expect, it } from "vitest";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { SystemClock } from "../../kernel/clock.js";
import { HttpExchange } from "../../web/http-exchange.js";
import type { RequestMatcher } from "../../web/request-matcher.js";
import { anyRequest } from "../../web/request-matcher.js";
import { AUTHENTICATION_ATTRIBUTE, type Authentication } from "../authentication/authentication.js";
import { AuthorizationFilter } from "./authorization-filter.js";
import type { AuthorizationDecision, AuthorizationManager } from "./authorization-manager.js";

const alice: Authentication = {
  userId: "u-alice",
  username: "alice",
  authorities: ["ROLE_USER"],
  method: "form",
  authenticatedAt: 0,
  factors: [],
};

function exchangeFor(path: string): HttpExchange {
  const exchange = new HttpExchange({ method: "GET", url: path, headers: {}, remoteAddress: "127.0.0.1" });
  exchange.attributes.set(AUTHENTICATION_ATTRIBUTE, alice);
  return exchange;
}

describe("AuthorizationFilter as a plain function keeps the async function's contract", () => {
  it("answers a host matcher that throws with a rejection, never a synchronous throw", async () => {
    const boom = new Error("matcher failed");
    const matcher: RequestMatcher = {
      matches: () => {
        throw boom;
      },
      description: "throws",
    } as unknown as RequestMatcher;
    const manager: AuthorizationManager = { check: () => ({ granted: true, reason: "yes" }) };
    const filter = new AuthorizationFilter(
      [{ matcher, manager }],
      new InMemoryAuditSink(100, new SystemClock()),
    );
    let answered: Promise<void> | undefined;
    // The SecurityFilter contract is a promise; the async function it replaced rejected here.
    expect(() => {
      answered = filter.filter(exchangeFor("/x"), async () => {});
    }).not.toThrow();
    await expect(answered).rejects.toBe(boom);
  });

  it("waits on a manager's answer that is a thenable, as `await` did (not only a native Promise)", async () => {
    // e.g. a host PDP client built on another promise library, or a promise from another realm
    const thenable = {
      // biome-ignore lint/suspicious/noThenProperty: a thenable is the point
      then(ok: (d: AuthorizationDecision) => unknown) {
        ok({ granted: true, reason: "remote PDP" });
      },
    } as unknown as Promise<AuthorizationDecision>;
    const manager: AuthorizationManager = { check: () => thenable };
    const filter = new AuthorizationFilter(
      [{ matcher: anyRequest(), manager }],
      new InMemoryAuditSink(100, new SystemClock()),
    );
    let nextCalls = 0;
    const outcome = await filter
      .filter(exchangeFor("/x"), async () => {
        nextCalls++;
      })
      .then(
        () => "ok",
        (e: unknown) => `refused: ${(e as { code?: string }).code}`,
      );
    expect(outcome).toBe("ok");
    expect(nextCalls).toBe(1);
  });
});
