import { describe, expect, it } from "vitest";
import { Clock, ManualClock } from "../../kernel/clock.js";
import { createPlatform } from "../../kernel/platform.js";
import type { PlatformPlugin } from "../../kernel/plugin.js";
import { ADAPTIVE_PROPERTIES } from "../../mfa/adaptive/risk-thresholds.js";
import { authzPlugin } from "../authz-plugin.js";
import { AdaptiveMfaZeroTrustListener } from "./adaptive-mfa-zero-trust-listener.js";
import { ZeroTrustActionResolver } from "./zero-trust-action-resolver.js";
import { ZeroTrustActionService } from "./zero-trust-action-service.js";
import { ALICE } from "./zero-trust.fixture.js";

// The module's own wiring (authzPlugin: factories, no decorator metadata), plus the adaptive
// thresholds the identity module normally declares.
const adaptiveProperties: PlatformPlugin = {
  id: "adaptive-properties",
  properties: ADAPTIVE_PROPERTIES,
  register() {},
};

describe("zero trust under tsyringe", () => {
  it("resolves resolver, service and listener from tokens alone, sharing one resolver", async () => {
    const platform = createPlatform({
      plugins: [adaptiveProperties, authzPlugin],
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
