import { createIdentityPlugin, createPlatform, platformPasswordHasher } from "@keyward/core";
import { describe, expect, it } from "vitest";
import { existingUsers } from "../../examples/h3-host/src/host-users-data.js";
import { isLegacyHash, LegacyPasswordHasher } from "../../examples/h3-host/src/legacy-password-hasher.js";
import { LOW_COST_SCRYPT } from "../support/low-cost-scrypt.js";

// The example host's hasher: its users' bcrypt and argon2 hashes verify and need a rehash, new hashes
// are the platform's scrypt (at the cost the properties set); nothing in a stored hash or a password
// makes it throw.

const hashes = Object.fromEntries(existingUsers().map((u) => [u.login, u.passwordHash ?? ""]));
const { properties } = createPlatform({
  plugins: [createIdentityPlugin({ security: (r) => r.rest().oauth2().build() })],
  properties: LOW_COST_SCRYPT,
});
const hasher = new LegacyPasswordHasher(platformPasswordHasher(properties));

describe("the example host's LegacyPasswordHasher", () => {
  // The right argon2 password is proven by the example's browser test (one argon2 run each: ~0.4 s).
  it("verifies the bcrypt and argon2 hashes the users came with, and asks for their rehash", async () => {
    expect(await hasher.verify("ana-tea-for-two", hashes.ana!)).toBe(true);
    expect(await hasher.verify("ana-tea-for-tw0", hashes.ana!)).toBe(false);
    expect(await hasher.verify("bo-coffee-at-noon ", hashes.bo!)).toBe(false);
    expect([hasher.needsRehash(hashes.ana!), hasher.needsRehash(hashes.bo!)]).toEqual([true, true]);
  });

  it("hashes new passwords with the platform's scrypt at the configured cost, which needs no rehash", async () => {
    const fresh = await hasher.hash("a new password");
    expect(fresh).toMatch(/^\$scrypt\$ln=10,/);
    expect(isLegacyHash(fresh)).toBe(false);
    expect(hasher.needsRehash(fresh)).toBe(false);
    expect(await hasher.verify("a new password", fresh)).toBe(true);
  });

  it("cuts passwords at bcrypt's 72 bytes as the old system did, and never throws on hostile input", async () => {
    expect(await hasher.verify("x".repeat(5_000), hashes.ana!)).toBe(false);
    const hostile = [
      "",
      "$2a$10$short",
      `$2a$10$${"!".repeat(53)}`,
      "$argon2id$v=19$m=99999999,t=1,p=1$AAAA$BBBB",
      "$argon2id$v=19$m=19456,t=2,p=1$$",
      "$scrypt$garbage",
      "\u0000",
    ];
    for (const encoded of hostile) {
      await expect(hasher.verify("ana-tea-for-two", encoded), encoded).resolves.toBe(false);
      expect(() => hasher.needsRehash(encoded)).not.toThrow();
    }
  });
});
