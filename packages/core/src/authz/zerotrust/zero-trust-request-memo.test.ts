import { describe, expect, it } from "vitest";
import { HttpExchange } from "../../web/http-exchange.js";
import { ResolverZeroTrustEvaluator } from "../pdp/resolver-zero-trust-evaluator.js";
import { ALICE, BOB, sequence, setup } from "./zero-trust.fixture.js";
import { rememberedZeroTrust, rememberZeroTrust } from "./zero-trust-request-memo.js";

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
  it("is read back for the same authentication only", async () => {
    const { resolver } = setup();
    const ex = exchange();
    const resolution = await resolver.resolve({ authentication: ALICE, unsampled: true });
    rememberZeroTrust(ex, ALICE, resolution);
    expect(rememberedZeroTrust(ex, ALICE)).toBe(resolution);
    expect(rememberedZeroTrust(ex, BOB)).toBeUndefined();
    expect(rememberedZeroTrust(exchange(), ALICE)).toBeUndefined();
  });

  it("gives the PDP's verdict without reading the store again", async () => {
    const { resolver, service, store, clock } = setup({ "security.zerotrust.hotpath.enabled": false });
    await service.set("user:u-alice", "ESCALATE", { source: "admin" });
    const ex = exchange();
    rememberZeroTrust(ex, ALICE, await resolver.resolve({ authentication: ALICE, unsampled: true }));
    const reads = store.gets.length;
    const verdict = new ResolverZeroTrustEvaluator(resolver, clock).remembered(ALICE, ex);
    expect(verdict).toMatchObject({ action: "ESCALATE", denial: { code: "ZERO_TRUST_REVIEW_REQUIRED" } });
    expect(store.gets.length).toBe(reads);
    expect(new ResolverZeroTrustEvaluator(resolver, clock).remembered(ALICE, exchange())).toBeUndefined();
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
