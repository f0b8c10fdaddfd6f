import { describe, expect, it } from "vitest";
import { SignInFailureHook } from "../identity/authentication/sign-in-failure-hook.js";
import { SignInMethod } from "../identity/chain/sign-in-method.js";
import { createIdentityPlugin } from "../identity/identity-plugin.js";
import { restSignInMethod } from "../identity/login/password-sign-in-methods.js";
import { PrimaryAuthenticator } from "../identity/login/primary-authenticator.js";
import { PasswordHasher } from "../identity/password/password-hasher.js";
import { UserRepository } from "../identity/users/user-repository.js";
import type { LogFields, Logger } from "../kernel/logger.js";
import { Logger as LoggerToken } from "../kernel/logger.js";
import { createPlatform } from "../kernel/platform.js";
import type { PlatformPlugin } from "../kernel/plugin.js";
import { codeOf } from "../kernel/error-code.test-support.js";
import { SignInHistoryStore } from "./adaptive/sign-in-history-store.js";
import { MfaFlows } from "./chain/mfa-flows.js";
import { mfaPlugin } from "./mfa-plugin.js";

/** A REST chain for single-factor sign-in and an `.mfa()` chain under /mfa-app, as the demo has. */
const security = createIdentityPlugin({
  security: (r) =>
    r
      .rest((rest) => rest.rawHttp((h) => h.securityMatcher("/api/**")))
      .oauth2()
      .mfa((m) =>
        m
          .primaryAuthentication((p) => p.formLogin())
          .ott()
          .urlPrefix("/mfa-app"),
      )
      .session()
      .build(),
});
const fastHasher: PlatformPlugin = {
  id: "fast-hasher",
  register(ctx) {
    ctx.override(PasswordHasher, {
      useValue: {
        hash: async (password) => `plain:${password}`,
        verify: async (password, encoded) => encoded === `plain:${password}`,
        needsRehash: () => false,
        dummyVerify: async () => {},
      },
    });
  },
};

function plugin(id: string, register: PlatformPlugin["register"]): PlatformPlugin {
  return { id, register };
}

/** Starts (and stops) a platform of these plugins. */
async function start(plugins: PlatformPlugin[]): Promise<void> {
  const platform = createPlatform({ env: {}, plugins });
  try {
    await platform.start();
  } finally {
    await platform.stop();
  }
}

describe("mfaPlugin: MFA is enforced or the start is refused", () => {
  it("starts with the built-in `mfa` method and gates the other chains into its flow", async () => {
    const platform = createPlatform({ env: {}, plugins: [security, mfaPlugin] });
    await platform.start();
    expect(
      platform
        .resolve(MfaFlows)
        .all()
        .map((f) => f.urls.urlPrefix),
    ).toEqual(["/mfa-app"]);
    await platform.stop();
  });

  it("refuses the start when the `mfa` method is replaced by one that adds no flows (the gate would be off)", async () => {
    const silent = plugin("silent-mfa", (ctx) =>
      ctx.registerMember(SignInMethod, {
        useValue: {
          kind: "mfa",
          multiFactor: true,
          plan: () => ({
            loginPage: "/x",
            processingUrl: "/x",
            redirectsToLoginPage: true,
            filters: () => [],
          }),
        },
      }),
    );
    expect(await codeOf(start([security, mfaPlugin, silent]))).toBe("CONFIGURATION_INVALID");
  });

  it("refuses a `multiFactor` flag on a method no chain hook gates into (it would skip MFA)", async () => {
    const exempt = plugin("exempt-rest", (ctx) =>
      ctx.registerMember(SignInMethod, {
        useValue: { ...restSignInMethod, builtIn: false, multiFactor: true },
      }),
    );
    expect(await codeOf(start([security, mfaPlugin, exempt]))).toBe("CONFIGURATION_INVALID");
  });

  it("refuses an `.mfa()` chain without mfaPlugin, naming it", async () => {
    // `.mfa()` is no method of that platform's registry DSL: the DSL, run at start, fails clearly.
    expect(await codeOf(start([security]))).toBe("CONFIGURATION_INVALID");
    await expect(start([security])).rejects.toThrow(/\.mfa\(\) is not in the registry DSL .*add mfaPlugin/);
  });

  it("lets a host's method replace a built-in one wherever the host's plugin stands", async () => {
    const planned: string[] = [];
    const own = plugin("own-rest", (ctx) =>
      ctx.registerMember(SignInMethod, {
        useValue: {
          kind: "rest",
          plan: (definition, handlers) => {
            planned.push(definition.id);
            return restSignInMethod.plan(definition, handlers);
          },
        },
      }),
    );
    for (const plugins of [
      [own, security, mfaPlugin],
      [security, mfaPlugin, own],
    ]) {
      planned.length = 0;
      const platform = createPlatform({ env: {}, plugins });
      await platform.start();
      expect(planned).toEqual(["rest"]);
      await platform.stop();
    }
  });

  it("records a known user's wrong password in the sign-in history even after a failing hook", async () => {
    const broken = plugin("broken-hook", (ctx) =>
      ctx.registerMember(SignInFailureHook, {
        useValue: {
          id: "broken",
          onKnownUserFailure: () => {
            throw new Error("not a promise");
          },
        },
      }),
    );
    // The broken member is registered before MFA's recorder.
    const platform = createPlatform({ env: {}, plugins: [security, fastHasher, broken, mfaPlugin] });
    await platform.start();
    const user = await platform
      .resolve(UserRepository)
      .create({ username: "ann", passwordHash: "plain:right" });
    await expect(
      platform
        .resolve(PrimaryAuthenticator)
        .authenticate({ username: "ann", password: "wrong", remoteAddress: "10.0.0.1", method: "rest" }),
    ).rejects.toMatchObject({ code: "BAD_CREDENTIALS" });
    expect((await platform.resolve(SignInHistoryStore).historyOf(user.id)).recentFailures).toBe(1);
    await platform.stop();
  });

  it("warns at start when required authorities exist but no `.mfa()` chain enforces them", async () => {
    const warnings: string[] = [];
    const logger: Logger = {
      info: () => {},
      warn: (message: string, _fields?: LogFields) => void warnings.push(message),
      error: () => {},
      debug: () => {},
    } as unknown as Logger;
    const restOnly = createIdentityPlugin({ security: (r) => r.rest().oauth2().build() });
    const platform = createPlatform({
      env: {},
      plugins: [restOnly, mfaPlugin],
      overrides: (o) => o.override(LoggerToken, { useValue: logger }),
    });
    await platform.start();
    expect(warnings.some((w) => w.startsWith("MFA is installed but not enforced"))).toBe(true);
    await platform.stop();
  });
});
