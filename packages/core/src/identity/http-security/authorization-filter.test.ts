import { describe, expect, it } from "vitest";
import { SystemClock } from "../../kernel/clock.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { antMatcher, anyRequest, type RequestMatcher } from "../../web/request-matcher.js";
import { AUTHENTICATION_ATTRIBUTE, type Authentication } from "../authentication/authentication.js";
import { AuthorizationFilter } from "./authorization-filter.js";
import { type AuthorizationDecision, type AuthorizationManager, rules } from "./authorization-manager.js";

const alice: Authentication = {
  userId: "u-alice",
  username: "alice",
  authorities: ["ROLE_USER"],
  method: "form",
  authenticatedAt: 0,
  factors: [],
};

function exchangeFor(path: string, authentication?: Authentication): HttpExchange {
  const exchange = new HttpExchange({ method: "GET", url: path, headers: {}, remoteAddress: "127.0.0.1" });
  if (authentication) exchange.attributes.set(AUTHENTICATION_ATTRIBUTE, authentication);
  return exchange;
}

/** Runs the filter; what `next` saw and how the filter's promise settled. */
async function run(filter: AuthorizationFilter, exchange: HttpExchange) {
  let nextCalls = 0;
  let result: unknown;
  try {
    const answered = filter.filter(exchange, async () => {
      nextCalls++;
    });
    expect(answered).toBeInstanceOf(Promise);
    result = await answered;
  } catch (error) {
    return { nextCalls, code: isPlatformError(error) ? error.code : `not ours: ${String(error)}` };
  }
  return { nextCalls, code: undefined, result };
}

const auditSink = (): InMemoryAuditSink => new InMemoryAuditSink(100, new SystemClock());

const granted: AuthorizationDecision = { granted: true, reason: "test" };
const refused: AuthorizationDecision = { granted: false, reason: "test", code: "ACCESS_DENIED" };

describe("AuthorizationFilter", () => {
  it("goes on at once for a decision answered without a promise, and refuses a refusal answered so", async () => {
    const filter = new AuthorizationFilter(
      [
        { matcher: antMatcher("/open/**"), manager: { check: () => granted } },
        { matcher: antMatcher("/shut/**"), manager: { check: () => refused } },
        { matcher: anyRequest(), manager: rules.authenticated() },
      ],
      auditSink(),
    );
    expect(await run(filter, exchangeFor("/open/x"))).toMatchObject({ nextCalls: 1, code: undefined });
    expect(await run(filter, exchangeFor("/shut/x", alice))).toMatchObject({
      nextCalls: 0,
      code: "ACCESS_DENIED",
    });
    expect(await run(filter, exchangeFor("/else"))).toMatchObject({
      nextCalls: 0,
      code: "AUTHENTICATION_REQUIRED",
    });
    expect(await run(filter, exchangeFor("/else", alice))).toMatchObject({ nextCalls: 1, code: undefined });
  });

  it("waits on a decision answered as a promise, granted or refused, as before", async () => {
    const later = (d: AuthorizationDecision): AuthorizationManager => ({
      check: () => new Promise((resolve) => setTimeout(() => resolve(d), 1)),
    });
    const filter = new AuthorizationFilter(
      [
        { matcher: antMatcher("/open/**"), manager: later(granted) },
        { matcher: anyRequest(), manager: later(refused) },
      ],
      auditSink(),
    );
    expect(await run(filter, exchangeFor("/open/x", alice))).toMatchObject({ nextCalls: 1, code: undefined });
    expect(await run(filter, exchangeFor("/other", alice))).toMatchObject({
      nextCalls: 0,
      code: "ACCESS_DENIED",
    });
  });

  it("answers a manager that throws, or rejects, with a rejection and never calls next", async () => {
    const boom = new Error("manager failed");
    for (const manager of [
      {
        check: () => {
          throw boom;
        },
      },
      { check: () => Promise.reject(boom) },
    ] as AuthorizationManager[]) {
      const filter = new AuthorizationFilter([{ matcher: anyRequest(), manager }], auditSink());
      expect(await run(filter, exchangeFor("/x", alice))).toEqual({
        nextCalls: 0,
        code: "not ours: Error: manager failed",
      });
    }
  });

  it("audits a refusal decided at once as it does one decided later", async () => {
    const audit = auditSink();
    const filter = new AuthorizationFilter([{ matcher: anyRequest(), manager: rules.denyAll() }], audit);
    expect(await run(filter, exchangeFor("/x", alice))).toMatchObject({ code: "ACCESS_DENIED" });
    expect(audit.events().map((e) => [e.type, e.principal])).toEqual([["http.access.denied", "alice"]]);
  });

  it("shares the static rules' decisions: one frozen object per answer, whatever the request", () => {
    const manager = rules.hasAnyRole("ADMIN");
    const a = manager.check(alice, exchangeFor("/x"));
    const b = manager.check(undefined, exchangeFor("/y"));
    expect(a).toBe(b);
    expect(Object.isFrozen(a)).toBe(true);
    expect(a).toEqual({ granted: false, reason: "hasAnyAuthority(ROLE_ADMIN)" });
    expect(manager.check({ ...alice, authorities: ["ROLE_ADMIN"] }, exchangeFor("/x"))).toEqual({
      granted: true,
      reason: "hasAnyAuthority(ROLE_ADMIN)",
    });
  });

  it("answers a host matcher that throws with a rejection, never a synchronous throw", async () => {
    const boom = new Error("matcher failed");
    const matcher = {
      matches: () => {
        throw boom;
      },
      description: "throws",
    } as unknown as RequestMatcher;
    const filter = new AuthorizationFilter([{ matcher, manager: { check: () => granted } }], auditSink());
    let answered: Promise<void> | undefined;
    // The SecurityFilter contract is a promise; the async function it replaced rejected here.
    expect(() => {
      answered = filter.filter(exchangeFor("/x", alice), async () => {});
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
    const filter = new AuthorizationFilter(
      [{ matcher: anyRequest(), manager: { check: () => thenable } }],
      auditSink(),
    );
    expect(await run(filter, exchangeFor("/x", alice))).toMatchObject({ nextCalls: 1, code: undefined });
  });
});
