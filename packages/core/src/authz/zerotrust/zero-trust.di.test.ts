import { describe, expect, it } from "vitest";
import { Clock, ManualClock } from "../../kernel/clock.js";
import { createPlatform } from "../../kernel/platform.js";
import type { PlatformPlugin } from "../../kernel/plugin.js";
import { ADAPTIVE_PROPERTIES } from "../../mfa/adaptive/risk-thresholds.js";
import { AdaptiveMfaZeroTrustListener } from "./adaptive-mfa-zero-trust-listener.js";
import { InMemoryZeroTrustActionStore } from "./in-memory-zero-trust-action-store.js";
import { ZeroTrustActionResolver } from "./zero-trust-action-resolver.js";
import { ZeroTrustActionService } from "./zero-trust-action-service.js";
import { ZeroTrustActionStore } from "./zero-trust-action-store.js";
import { ALICE } from "./zero-trust.fixture.js";
import { ZERO_TRUST_PROPERTIES } from "./zero-trust.properties.js";
import { ZeroTrustRandom } from "./zero-trust-resolution.js";

// A wiring like the one the module's plugin makes; only tokens, no decorator metadata.
const testPlugin: PlatformPlugin = {
  id: "zerotrust-test",
  properties: [...ZERO_TRUST_PROPERTIES, ...ADAPTIVE_PROPERTIES],
  register(ctx) {
    ctx.registerDefault(ZeroTrustActionStore, {
      useFactory: (c) => new InMemoryZeroTrustActionStore({ clock: c.resolve(Clock) }),
    });
    ctx.registerDefault(ZeroTrustRandom, { useValue: Math.random });
    ctx.registerDefault(ZeroTrustActionResolver, { useClass: ZeroTrustActionResolver });
    ctx.registerDefault(ZeroTrustActionService, { useClass: ZeroTrustActionService });
    ctx.registerDefault(AdaptiveMfaZeroTrustListener, { useClass: AdaptiveMfaZeroTrustListener });
  },
};

describe("zero trust under tsyringe", () => {
  it("resolves resolver, service and listener from tokens alone, sharing one resolver", async () => {
    const platform = createPlatform({
      plugins: [testPlugin],
      env: {},
      properties: { "security.zerotrust.mode": "SHADOW" },
      register: (c) => c.registerInstance(Clock, new ManualClock()),
    });
    const service = platform.resolve(ZeroTrustActionService);
    const resolver = platform.resolve(ZeroTrustActionResolver);
    expect(platform.resolve(AdaptiveMfaZeroTrustListener)).toBeInstanceOf(AdaptiveMfaZeroTrustListener);
    await resolver.resolve({ authentication: ALICE });
    await service.set("user:u-alice", "BLOCK", { source: "admin" });
    expect(await resolver.resolve({ authentication: ALICE })).toMatchObject({
      action: "BLOCK",
      mode: "SHADOW",
    });
  });
});
