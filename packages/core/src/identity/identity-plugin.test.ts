import { describe, expect, it } from "vitest";
import { createPlatform } from "../kernel/platform.js";
import { identityPlugin } from "./identity-plugin.js";
import { PasswordHasher } from "./password/password-hasher.js";
import { ScryptPasswordHasher } from "./password/scrypt-password-hasher.js";
import { InMemoryUserRepository } from "./users/in-memory-user-repository.js";
import { UserRepository } from "./users/user-repository.js";
import type { UserAccount } from "./users/user-account.js";

class HostUserRepository implements UserRepository {
  async findByUsername(username: string): Promise<UserAccount | undefined> {
    return username === "ldap-user"
      ? {
          id: "42",
          username,
          passwordHash: "plain:pw",
          authorities: ["ROLE_USER"],
          enabled: true,
          locked: false,
          version: 1,
          createdAt: 0,
        }
      : undefined;
  }
  async findById(): Promise<UserAccount | undefined> {
    return undefined;
  }
  async create(): Promise<UserAccount> {
    throw new Error("read-only directory");
  }
  async update(): Promise<UserAccount> {
    throw new Error("read-only directory");
  }
  async delete(): Promise<boolean> {
    return false;
  }
  async count(): Promise<number> {
    return 1;
  }
  async list(): Promise<UserAccount[]> {
    return [];
  }
}

class HostPasswordHasher implements PasswordHasher {
  async hash(password: string): Promise<string> {
    return `plain:${password}`;
  }
  async verify(password: string, encoded: string): Promise<boolean> {
    return encoded === `plain:${password}`;
  }
  needsRehash(): boolean {
    return false;
  }
  async dummyVerify(): Promise<void> {}
}

describe("identityPlugin", () => {
  it("registers the in-memory user repository and the scrypt hasher by default", () => {
    const p = createPlatform({ plugins: [identityPlugin], env: {} });
    expect(p.resolve(UserRepository)).toBeInstanceOf(InMemoryUserRepository);
    expect(p.resolve(PasswordHasher)).toBeInstanceOf(ScryptPasswordHasher);
  });

  it("lets a host's UserRepository and PasswordHasher replace the defaults", async () => {
    const users = new HostUserRepository();
    const p = createPlatform({
      plugins: [identityPlugin],
      env: {},
      register: (c) => {
        c.registerInstance(UserRepository, users);
        c.register(PasswordHasher, { useClass: HostPasswordHasher });
      },
    });
    expect(p.resolve(UserRepository)).toBe(users);
    const hasher = p.resolve(PasswordHasher);
    expect(hasher).toBeInstanceOf(HostPasswordHasher);
    const account = await p.resolve(UserRepository).findByUsername("ldap-user");
    expect(await hasher.verify("pw", account!.passwordHash!)).toBe(true);
  });

  it("reads the scrypt parameters from properties", async () => {
    const p = createPlatform({
      plugins: [identityPlugin],
      env: { PLATFORM_AUTH_PASSWORD_SCRYPT_COST_LOG2: "14" },
    });
    expect(await p.resolve(PasswordHasher).hash("pw")).toMatch(/^\$scrypt\$ln=14,r=8,p=1\$/);
  });
});
