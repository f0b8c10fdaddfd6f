import { AuditSink } from "../kernel/audit-sink.js";
import { Clock } from "../kernel/clock.js";
import { IdGenerator } from "../kernel/id-generator.js";
import type { PluginContext } from "../kernel/plugin.js";
import { PasswordAuthenticator } from "./authentication/password-authenticator.js";
import { SignInFailureHook } from "./authentication/sign-in-failure-hook.js";
import { PrimaryAuthenticator } from "./login/primary-authenticator.js";
import { PasswordHasher } from "./password/password-hasher.js";
import { platformPasswordHasher } from "./password/platform-password-hasher.js";
import { InMemoryLoginThrottle } from "./throttle/in-memory-login-throttle.js";
import { LoginThrottle } from "./throttle/login-throttle.js";
import { throttleOptionsFromProperties } from "./throttle/login-throttle.properties.js";
import { InMemoryUserRepository } from "./users/in-memory-user-repository.js";
import { UserRepository } from "./users/user-repository.js";

/** The account defaults: users, the password hasher, the login throttle and the primary authenticator. */
export function registerAccountDefaults(ctx: PluginContext): void {
  const { properties } = ctx;
  ctx.registerDefault(UserRepository, {
    useFactory: (c) => new InMemoryUserRepository({ ids: c.resolve(IdGenerator), clock: c.resolve(Clock) }),
  });
  ctx.registerDefault(PasswordHasher, {
    useFactory: () => platformPasswordHasher(properties),
  });
  ctx.registerDefault(LoginThrottle, {
    useFactory: (c) =>
      new InMemoryLoginThrottle({
        clock: c.resolve(Clock),
        ...throttleOptionsFromProperties(properties),
      }),
  });
  ctx.registerDefault(PrimaryAuthenticator, {
    useFactory: (c) =>
      new PasswordAuthenticator({
        users: c.resolve(UserRepository),
        hasher: c.resolve(PasswordHasher),
        throttle: c.resolve(LoginThrottle),
        clock: c.resolve(Clock),
        audit: c.resolve(AuditSink),
        // Members come from later plugins (MFA's sign-in history): read at each failure.
        onKnownUserFailure: async (userId) => {
          const hooks = c.isRegistered(SignInFailureHook, true) ? c.resolveAll(SignInFailureHook) : [];
          for (const hook of hooks) {
            try {
              await hook.onKnownUserFailure(userId);
            } catch {
              // A failing member never changes the sign-in's answer nor stops the others.
            }
          }
        },
      }),
  });
}
