import { describe, expect, it } from "vitest";
import { HttpExchange } from "../../web/http-exchange.js";
import { ResolverZeroTrustEvaluator } from "../pdp/resolver-zero-trust-evaluator.js";
import { ALICE, BOB, sequence, setup } from "./zero-trust.fixture.js";
import { ZeroTrustSubjectStatusCheck } from "./zero-trust-subject-status-check.js";

function exchange(): HttpExchange {
  return new HttpExchange({
    method: "GET",
    url: "/api/x",
    headers: {},
    remoteAddress: "",
    readBody: async () => "",
  });
}

// The `request` checkpoint's resolution, kept for the rest of the request (zero trust once per request).
describe("the request's zero-trust resolution", () => {
  it("gives the PDP's verdict for the same caller without reading the store again", async () => {
    const { resolver, service, store, clock, audit } = setup({ "security.zerotrust.hotpath.enabled": false });
    await service.set("user:u-alice", "ESCALATE", { source: "admin" });
    const evaluator = new ResolverZeroTrustEvaluator(resolver, clock);
    const ex = exchange();
    await new ZeroTrustSubjectStatusCheck({ resolver, audit }).check({
      checkpoint: "request",
      authentication: ALICE,
      exchange: ex,
    });
    const reads = store.gets.length;
    expect(evaluator.remembered(ALICE, ex)).toMatchObject({
      action: "ESCALATE",
      denial: { code: "ZERO_TRUST_REVIEW_REQUIRED" },
    });
    expect(store.gets.length).toBe(reads);
    // Another caller, or another request: nothing remembered, the PDP resolves as usual.
    expect(evaluator.remembered(BOB, ex)).toBeUndefined();
    expect(evaluator.remembered(ALICE, exchange())).toBeUndefined();
  });

  it("is kept at the request checkpoint only (a sign-in's resolution is not the request's caller's)", async () => {
    const { resolver, clock, audit } = setup();
    const ex = exchange();
    const check = new ZeroTrustSubjectStatusCheck({ resolver, audit });
    await check.check({ checkpoint: "sign-in", authentication: ALICE, exchange: ex });
    expect(new ResolverZeroTrustEvaluator(resolver, clock).remembered(ALICE, ex)).toBeUndefined();
  });

  it("still goes through sampling, as a PDP lookup would (the checkpoint's own read is unsampled)", async () => {
    // One draw per reuse: 0.9 is not sampled at rate 0.5, 0.1 is.
    const { resolver, service } = setup({ "security.zerotrust.sampling.rate": 0.5 }, sequence(0.9, 0.1));
    await service.set("user:u-alice", "ESCALATE", { source: "admin" });
    const resolution = await resolver.resolve({ authentication: ALICE, unsampled: true });
    expect(resolver.reuse({ authentication: ALICE }, resolution)).toMatchObject({
      evaluated: false,
      reason: "not-sampled",
    });
    expect(resolver.reuse({ authentication: ALICE }, resolution)).toBe(resolution);
  });
});
