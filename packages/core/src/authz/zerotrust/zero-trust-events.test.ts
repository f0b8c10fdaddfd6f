import { describe, expect, it } from "vitest";
import { InProcessEventBus, type PlatformEvent } from "../../kernel/event-bus.js";
import { ALICE, setup } from "./zero-trust.fixture.js";
import { ZeroTrustActionResolver } from "./zero-trust-action-resolver.js";
import { ZERO_TRUST_ANALYSIS_MISSING_EVENT } from "./zero-trust-events.js";

function withBus(code: Record<string, unknown> = {}) {
  const f = setup(code);
  const bus = new InProcessEventBus();
  const seen: PlatformEvent[] = [];
  bus.on(ZERO_TRUST_ANALYSIS_MISSING_EVENT, (e) => {
    seen.push(e);
  });
  const resolver = new ZeroTrustActionResolver(f.store, f.clock, f.audit, f.properties, () => 0, bus);
  return { ...f, resolver, seen };
}

describe("zerotrust.analysis.missing", () => {
  it("is published when a store read finds no live action, once per cached read", async () => {
    const f = withBus();
    await f.resolver.resolve({ authentication: ALICE, sessionId: "h1" });
    await f.resolver.resolve({ authentication: ALICE, sessionId: "h1" }); // hot-path hit
    expect(f.seen).toEqual([
      {
        type: ZERO_TRUST_ANALYSIS_MISSING_EVENT,
        payload: { userId: "u-alice", username: "alice", sessionHandle: "h1" },
      },
    ]);
    f.clock.advance(30_000); // the cached "none" is stale: the next request reads the store again
    await f.resolver.resolve({ authentication: ALICE });
    expect(f.seen).toHaveLength(2);
  });

  it("is not published on a quiet read (the sign-in checkpoint, whose sign-in is announced itself)", async () => {
    const f = withBus({ "security.zerotrust.hotpath.enabled": false });
    await f.resolver.resolve({ authentication: ALICE, unsampled: true, quiet: true });
    expect(f.seen).toEqual([]);
    await f.resolver.resolve({ authentication: ALICE, unsampled: true });
    expect(f.seen).toHaveLength(1);
  });

  it("is not published when the user or the session has a live action, or when nothing is evaluated", async () => {
    const f = withBus({ "security.zerotrust.hotpath.enabled": false });
    await f.memory.put({ subject: "session:h1", action: "ALLOW", source: "host" }, 60_000);
    await f.resolver.resolve({ authentication: ALICE, sessionId: "h1" });
    await f.memory.put({ subject: "user:u-alice", action: "CHALLENGE", source: "host" }, 60_000);
    await f.resolver.resolve({ authentication: ALICE });
    await f.resolver.resolve({ authentication: undefined });
    expect(f.seen).toEqual([]);
  });
});
