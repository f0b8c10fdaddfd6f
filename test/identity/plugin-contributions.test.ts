import { createHttpApp, httpPlugin, RouteRegistry } from "@keyward/adapters-http";
import {
  createIdentityPlugin,
  createPlatform,
  mfaPlugin,
  type Platform,
  type PlatformPlugin,
  type SecurityRegistry,
} from "@keyward/core";
import {
  ErrorCatalog,
  type ErrorCodeTable,
  PlatformError,
  type PlatformErrorCode,
} from "@keyward/core/errors";
import { ContributedRule } from "@keyward/core/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizationRules } from "../../packages/core/src/identity/http-security/authorization-manager.js";

// Two platforms in one process, one with the MFA plugin and a host plugin (an error code of its own),
// one without: what plugins contribute lands in their platform alone, nothing in module state.
const HOST_CODES = {
  HOST_QUOTA_EXCEEDED: {
    status: 429,
    meaning: "The tenant used its quota.",
    remedy: "Wait for the next period.",
  },
} as const satisfies ErrorCodeTable;
const hostPlugin: PlatformPlugin = { id: "host", errorCodes: [HOST_CODES] };
const QUOTA = "HOST_QUOTA_EXCEEDED" as PlatformErrorCode;

/** A platform whose DSL callback tries `.mfa()` (keeping what it did) and registers a form chain. */
function platformWith(plugins: PlatformPlugin[], properties: Record<string, unknown> = {}) {
  const seen: { mfa?: string } = {};
  const identity = createIdentityPlugin({
    security: (r) => {
      seen.mfa = codeAndMessage(() =>
        r
          .mfa((m) =>
            m
              .primaryAuthentication((p) => p.formLogin())
              .ott()
              .urlPrefix("/second"),
          )
          .session(),
      );
      return r.form().session().build();
    },
  });
  const platform = createPlatform({
    plugins: [httpPlugin, identity, ...plugins],
    properties,
    env: {},
  });
  return { platform, seen };
}

function codeAndMessage(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    return e instanceof PlatformError ? `${e.code}: ${e.message}` : String(e);
  }
  return "no error";
}

/** GET /quota on the platform's HTTP app, whose route throws the host's code. */
async function quotaAnswer(platform: Platform): Promise<{ status: number; code: unknown }> {
  const routes = new RouteRegistry();
  routes.add({
    method: "GET",
    path: "/quota",
    handler: () => {
      throw new PlatformError(QUOTA, "Quota exceeded");
    },
  });
  const { app } = createHttpApp({ platform, routes });
  const response = await app.request("/quota");
  return { status: response.status, code: ((await response.json()) as { code?: unknown }).code };
}

describe("two platforms with different plugins in one process", () => {
  // No role needs MFA here (its start would warn that no .mfa() chain enforces it).
  const withMfa = platformWith([mfaPlugin, hostPlugin], { "platform.auth.mfa.requiredAuthorities": "" });
  const without = platformWith([]);
  beforeAll(async () => {
    await withMfa.platform.start();
    await without.platform.start();
  });
  afterAll(async () => {
    await withMfa.platform.stop();
    await without.platform.stop();
  });

  it("hand .mfa() to the DSL of the platform with mfaPlugin only; the other fails clearly", () => {
    expect(withMfa.seen.mfa).toBe("no error");
    expect(without.seen.mfa).toBe(
      "CONFIGURATION_INVALID: .mfa() is not in the registry DSL of this platform: no installed plugin " +
        "contributes it; add mfaPlugin (from @keyward/core) to the platform's plugins",
    );
  });

  it("refuse to start an .mfa() chain on the platform without mfaPlugin, naming it", async () => {
    const security = (r: SecurityRegistry) =>
      r
        .mfa((m) => m.primaryAuthentication((p) => p.formLogin()).ott())
        .session()
        .build();
    const bare = createPlatform({ plugins: [httpPlugin, createIdentityPlugin({ security })], env: {} });
    await expect(bare.start()).rejects.toMatchObject({
      code: "CONFIGURATION_INVALID",
      message: expect.stringMatching(/\.mfa\(\) is not in the registry DSL .*add mfaPlugin/),
    });
  });

  it("answer the host's code with its status on the platform with the host plugin, as unknown on the other", async () => {
    expect(withMfa.platform.resolve(ErrorCatalog).statusOf(QUOTA)).toBe(429);
    expect(without.platform.resolve(ErrorCatalog).entry(QUOTA)).toBeUndefined();
    expect(await quotaAnswer(withMfa.platform)).toEqual({ status: 429, code: QUOTA });
    expect(await quotaAnswer(without.platform)).toEqual({ status: 500, code: "INTERNAL_ERROR" });
  });

  it("resolve the contributed rule recentFactor on the platform with mfaPlugin only", async () => {
    const rulesOf = (platform: Platform) =>
      authorizationRules(
        platform.container.isRegistered(ContributedRule, true)
          ? platform.container.resolveAll(ContributedRule)
          : [],
      );
    const manager = rulesOf(withMfa.platform).recentFactor(60_000, () => 0);
    expect(await manager.check(undefined, undefined as never)).toMatchObject({ granted: false });
    expect(codeAndMessage(() => rulesOf(without.platform).recentFactor(60_000))).toMatch(
      /^CONFIGURATION_INVALID: \.recentFactor\(\) is not in the static authorization rules of this platform: .*add mfaPlugin/,
    );
  });
});
