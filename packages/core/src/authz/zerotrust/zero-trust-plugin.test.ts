import { describe, expect, it } from "vitest";
import { SessionManager } from "../../identity/session/session-manager.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { SubjectStatusCheck } from "../../identity/authentication/subject-status-check.js";
import { createPlatform } from "../../kernel/platform.js";
import type { PlatformPlugin } from "../../kernel/plugin.js";
import { ADAPTIVE_PROPERTIES } from "../../mfa/adaptive/risk-thresholds.js";
import { authzPlugin } from "../authz-plugin.js";
import { UrlAuthorizationManager } from "../pdp/url-authorization-manager.js";
import { ZeroTrustActionService } from "./zero-trust-action-service.js";
import { sessionHandle, sessionHandleOf, zeroTrustPlugin } from "./zero-trust-plugin.js";

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

describe("sessionHandleOf", () => {
  it("answers each session's own handle, worked out once and kept, also past the memo's bound", async () => {
    const c = createPlatform({ env: {} }).container.createChildContainer();
    // The session is the request's cookie value here: only cookieName and currentOrPending are read.
    // A session id starting with "p-" is still loading (a promise), any other is known at once.
    const sessions = {
      cookieName: "sid",
      currentOrPending: (exchange: HttpExchange) => {
        const id = exchange.cookie("sid") as string;
        return id.startsWith("p-") ? Promise.resolve({ id }) : { id };
      },
    };
    c.registerInstance(SessionManager, sessions as unknown as SessionManager);
    const handleOf = sessionHandleOf(c);
    const ask = (cookie: string | undefined) =>
      handleOf(
        new HttpExchange({
          method: "GET",
          url: "/",
          headers: cookie === undefined ? {} : { cookie },
          remoteAddress: "127.0.0.1",
        }),
      );
    expect(ask(undefined)).toBeUndefined();
    // Known at once: the handle itself, no promise; still loading: a promise of it.
    expect(ask("sid=s-1")).toBe(sessionHandle("s-1"));
    expect(ask("sid=p-1")).toBeInstanceOf(Promise);
    expect(await ask("sid=p-1")).toBe(sessionHandle("p-1"));
    expect(await ask("sid=s-1")).toBe(sessionHandle("s-1"));
    expect(await ask("sid=s-1")).toBe(sessionHandle("s-1"));
    for (let i = 0; i < 5000; i++) expect(await ask(`sid=s-${i}`)).toBe(sessionHandle(`s-${i}`));
    expect(await ask("sid=s-1")).toBe(sessionHandle("s-1"));
  });
});
