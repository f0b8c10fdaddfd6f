import { describe, expect, it } from "vitest";
import { SubjectStatusCheck } from "../../identity/authentication/subject-status-check.js";
import { createPlatform } from "../../kernel/platform.js";
import type { PlatformPlugin } from "../../kernel/plugin.js";
import { ADAPTIVE_PROPERTIES } from "../../mfa/adaptive/risk-thresholds.js";
import { authzPlugin } from "../authz-plugin.js";
import { UrlAuthorizationManager } from "../pdp/url-authorization-manager.js";
import { ZeroTrustActionService } from "./zero-trust-action-service.js";
import { zeroTrustPlugin } from "./zero-trust-plugin.js";

const adaptiveProperties: PlatformPlugin = {
  id: "adaptive-properties",
  properties: ADAPTIVE_PROPERTIES,
  register() {},
};
/** The plugin ids in install order, recorded as each one registers. */
function installed(plugins: PlatformPlugin[]): string[] {
  const order: string[] = [];
  const spy = (p: PlatformPlugin): PlatformPlugin => ({
    ...p,
    register(ctx) {
      order.push(p.id);
      p.register?.(ctx);
    },
    ...(p.includes ? { includes: p.includes.map(spyOf) } : {}),
  });
  const spies = new Map<PlatformPlugin, PlatformPlugin>();
  const spyOf = (p: PlatformPlugin): PlatformPlugin => {
    let s = spies.get(p);
    if (!s) {
      s = spy(p);
      spies.set(p, s);
    }
    return s;
  };
  createPlatform({ env: {}, plugins: plugins.map(spyOf) });
  return order;
}

describe("zeroTrustPlugin", () => {
  it("is included by authzPlugin, right after it, and installed once when the host lists it too", () => {
    expect(installed([adaptiveProperties, authzPlugin])).toEqual([
      "adaptive-properties",
      "authz",
      "zero-trust",
    ]);
    expect(installed([adaptiveProperties, zeroTrustPlugin, authzPlugin])).toEqual([
      "adaptive-properties",
      "zero-trust",
      "authz",
    ]);
    expect(installed([adaptiveProperties, authzPlugin, zeroTrustPlugin])).toEqual([
      "adaptive-properties",
      "authz",
      "zero-trust",
    ]);
  });

  it("works alone, without the PDP: the action service and the checkpoint status check", async () => {
    const platform = createPlatform({ env: {}, plugins: [adaptiveProperties, zeroTrustPlugin] });
    await platform.start();
    expect(platform.container.isRegistered(UrlAuthorizationManager, true)).toBe(false);
    expect(platform.container.resolveAll(SubjectStatusCheck).map((c) => c.id)).toEqual(["zero-trust"]);
    await platform.resolve(ZeroTrustActionService).set("user:u1", "BLOCK", { source: "admin" });
    expect(await platform.stop()).toEqual([]);
  });
});
