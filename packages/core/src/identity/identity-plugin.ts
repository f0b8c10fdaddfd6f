import { Clock } from "../kernel/clock.js";
import { IdGenerator } from "../kernel/id-generator.js";
import type { PlatformPlugin } from "../kernel/plugin.js";
import { PasswordHasher } from "./password/password-hasher.js";
import {
  PASSWORD_HASHER_PROPERTIES,
  scryptOptionsFromProperties,
} from "./password/password-hasher.properties.js";
import { ScryptPasswordHasher } from "./password/scrypt-password-hasher.js";
import { InMemoryUserRepository } from "./users/in-memory-user-repository.js";
import { UserRepository } from "./users/user-repository.js";

/**
 * The identity module: users and password hashing (more ports join as the security runtime lands).
 * Each default is registered only where the host registered nothing.
 */
export const identityPlugin: PlatformPlugin = {
  id: "identity",
  properties: [...PASSWORD_HASHER_PROPERTIES],
  register(ctx) {
    ctx.registerDefault(UserRepository, {
      useFactory: (c) => new InMemoryUserRepository({ ids: c.resolve(IdGenerator), clock: c.resolve(Clock) }),
    });
    ctx.registerDefault(PasswordHasher, {
      useFactory: () => new ScryptPasswordHasher(scryptOptionsFromProperties(ctx.properties)),
    });
  },
};
