import { describe, expect, it } from "vitest";
import { codeOf } from "../../kernel/error-code.test-support.js";
import type { UserRepository } from "./user-repository.js";

/**
 * The e-mail part of the UserRepository contract (issue 33), run inside
 * `describeUserRepositoryContract`: an address is stored as given, absent when not given, unique
 * case-insensitively when set, and freed by a change, a clear or a delete.
 */
export function describeUserRepositoryEmailContract(
  factory: () => Promise<UserRepository> | UserRepository,
): void {
  describe("e-mail address (optional, unique case-insensitively when set)", () => {
    it("stores the address as given and finds it by id and username; none when not given", async () => {
      const repo = await factory();
      const alice = await repo.create({ username: "alice", email: "Alice.Smith@example.com" });
      expect(alice.email).toBe("Alice.Smith@example.com");
      expect(await repo.findById(alice.id)).toEqual(alice);
      expect((await repo.findByUsername("ALICE"))?.email).toBe("Alice.Smith@example.com");
      const bob = await repo.create({ username: "bob" });
      expect(bob).not.toHaveProperty("email");
      expect(await repo.findById(bob.id)).not.toHaveProperty("email");
      // Two accounts without an address are no conflict.
      await expect(repo.create({ username: "carol" })).resolves.toBeDefined();
    });

    it("refuses an address another account holds, whatever its case, on create and on update", async () => {
      const repo = await factory();
      await repo.create({ username: "alice", email: "alice@example.com" });
      expect(await codeOf(repo.create({ username: "mallory", email: "ALICE@Example.COM" }))).toBe("CONFLICT");
      expect(await repo.findByUsername("mallory")).toBeUndefined();
      expect(await repo.count()).toBe(1);
      const bob = await repo.create({ username: "bob" });
      expect(await codeOf(repo.update({ ...bob, email: "Alice@example.com" }))).toBe("CONFLICT");
      expect(await repo.findById(bob.id)).toEqual(bob);
    });

    it("sets, changes and clears an address; the old one frees up each time", async () => {
      const repo = await factory();
      const alice = await repo.create({ username: "alice" });
      const set = await repo.update({ ...alice, email: "a1@example.com" });
      expect(set).toMatchObject({ email: "a1@example.com", version: 2 });
      const changed = await repo.update({ ...set, email: "a2@example.com" });
      expect((await repo.findById(alice.id))?.email).toBe("a2@example.com");
      const other = await repo.create({ username: "bob", email: "A1@example.com" });
      expect(other.email).toBe("A1@example.com");
      const cleared = await repo.update({ ...changed, email: undefined });
      expect(cleared).not.toHaveProperty("email");
      expect(await repo.findById(alice.id)).not.toHaveProperty("email");
      await expect(repo.update({ ...other, email: "a2@example.com" })).resolves.toMatchObject({
        email: "a2@example.com",
      });
    });

    it("keeps the address through a rename and an unrelated change, and lets its case change", async () => {
      const repo = await factory();
      const alice = await repo.create({ username: "alice", email: "alice@example.com" });
      const renamed = await repo.update({ ...alice, username: "alicia", locked: true });
      expect(renamed.email).toBe("alice@example.com");
      const recased = await repo.update({ ...renamed, email: "Alice@example.com" });
      expect((await repo.findByUsername("alicia"))?.email).toBe("Alice@example.com");
      expect(await codeOf(repo.create({ username: "eve", email: "alice@EXAMPLE.com" }))).toBe("CONFLICT");
      expect(recased.version).toBe(3);
    });

    it("frees a deleted account's address", async () => {
      const repo = await factory();
      const alice = await repo.create({ username: "alice", email: "alice@example.com" });
      expect(await repo.delete(alice.id)).toBe(true);
      await expect(repo.create({ username: "bob", email: "alice@example.com" })).resolves.toMatchObject({
        email: "alice@example.com",
      });
    });

    it("lets exactly one of two concurrent creates with the same address win", async () => {
      const repo = await factory();
      const results = await Promise.allSettled([
        repo.create({ username: "alice", email: "same@example.com" }),
        repo.create({ username: "bob", email: "SAME@example.com" }),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(await repo.count()).toBe(1);
    });
  });
}
