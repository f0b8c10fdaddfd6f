import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { UserAccount } from "./user-account.js";
import type { UserRepository } from "./user-repository.js";
import { codeOf } from "../../kernel/error-code.test-support.js";
import { describeUserRepositoryEmailContract } from "./user-repository-email.contract.js";

/**
 * The behaviour every UserRepository adapter must show. `factory` returns a fresh, empty repository
 * for each test (the in-memory adapter always runs it; the MongoDB one when `MONGODB_URI` is set).
 */
export function describeUserRepositoryContract(
  name: string,
  factory: () => Promise<UserRepository> | UserRepository,
): void {
  describe(`UserRepository contract: ${name}`, () => {
    const alice = { username: "Alice", passwordHash: "$scrypt$hash", authorities: ["ROLE_USER"] };

    describe("create and find", () => {
      it("assigns an id, version 1, a creation time and the documented defaults", async () => {
        const repo = await factory();
        const created = await repo.create({ username: "bob" });
        expect(created.id).toEqual(expect.any(String));
        expect(created.id).not.toBe("");
        expect(created.version).toBe(1);
        expect(Number.isFinite(created.createdAt)).toBe(true);
        expect(created).toMatchObject({
          username: "bob",
          passwordHash: undefined,
          authorities: [],
          enabled: true,
          locked: false,
        });
      });

      it("stores every field and finds the account by id and by username", async () => {
        const repo = await factory();
        const created = await repo.create({ ...alice, enabled: false, locked: true });
        expect(created).toMatchObject({ ...alice, enabled: false, locked: true });
        expect(await repo.findById(created.id)).toEqual(created);
        expect(await repo.findByUsername("Alice")).toEqual(created);
      });

      it("gives two accounts different ids", async () => {
        const repo = await factory();
        const a = await repo.create({ username: "a" });
        const b = await repo.create({ username: "b" });
        expect(a.id).not.toBe(b.id);
      });

      it("matches usernames case-insensitively, NFKC-normalised and trimmed", async () => {
        const repo = await factory();
        const created = await repo.create(alice);
        for (const probe of ["alice", "ALICE", "  aLiCe\t", "ａｌｉｃｅ", "\u3000Alice\u3000"]) {
          expect(await repo.findByUsername(probe), probe).toEqual(created);
        }
      });

      it("stores the username NFKC-normalised and trimmed, case preserved", async () => {
        const repo = await factory();
        const created = await repo.create({ username: "  ＡＬＩＣＥ " });
        expect(created.username).toBe("ALICE");
        expect((await repo.findByUsername("alice"))?.username).toBe("ALICE");
      });

      it("finds nothing for unknown usernames and ids", async () => {
        const repo = await factory();
        await repo.create(alice);
        expect(await repo.findByUsername("alicia")).toBeUndefined();
        expect(await repo.findByUsername("")).toBeUndefined();
        expect(await repo.findById("no-such-id")).toBeUndefined();
      });

      it("refuses an empty or blank username with VALIDATION_FAILED", async () => {
        const repo = await factory();
        expect(await codeOf(repo.create({ username: "" }))).toBe("VALIDATION_FAILED");
        expect(await codeOf(repo.create({ username: " \t\u3000" }))).toBe("VALIDATION_FAILED");
        expect(await repo.count()).toBe(0);
      });
    });

    describe("duplicates", () => {
      it("refuses a taken username with CONFLICT, whatever its case, width or padding", async () => {
        const repo = await factory();
        await repo.create(alice);
        for (const username of ["Alice", "alice", "ALICE", " alice ", "ａｌｉｃｅ"]) {
          expect(await codeOf(repo.create({ username })), username).toBe("CONFLICT");
        }
        expect(await repo.count()).toBe(1);
      });

      it("lets exactly one of two concurrent creates of the same name win", async () => {
        const repo = await factory();
        const results = await Promise.allSettled([
          repo.create({ username: "carol" }),
          repo.create({ username: "CAROL" }),
        ]);
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        const rejected = results.find((r) => r.status === "rejected");
        expect(isPlatformError(rejected?.reason) && rejected.reason.code).toBe("CONFLICT");
        expect(await repo.count()).toBe(1);
      });
    });

    describe("lookalike usernames (issue #25 item 5: RFC 8265 for new names, UTS #39 skeleton for uniqueness)", () => {
      /** The outside review's variants: each was listed beside the real account. */
      const LOOKALIKES = [
        ["\u0430dmin (Cyrillic a)", "\u0430dmin", "VALIDATION_FAILED"],
        ["adm\u0130n (capital I with dot)", "adm\u0130n", "VALIDATION_FAILED"],
        ["adm\u0131n (dotless i)", "adm\u0131n", "CONFLICT"],
        ["ad\u0301min (combining acute)", "ad\u0301min", "VALIDATION_FAILED"],
        ["adrnin (rn for m)", "adrnin", "CONFLICT"],
        ["user + U+034F", "user\u034f", "VALIDATION_FAILED"],
        ["user + U+3164", "user\u3164", "VALIDATION_FAILED"],
        ["user + U+2800", "user\u2800", "VALIDATION_FAILED"],
        ["user + U+FE00", "user\uFE00", "VALIDATION_FAILED"],
        ["user + U+FE0F", "user\uFE0F", "VALIDATION_FAILED"],
      ] as const;

      it.each(LOOKALIKES)("refuses %s beside admin and user", async (_label, username, code) => {
        const repo = await factory();
        await repo.create({ username: "admin" });
        await repo.create({ username: "user" });
        expect(await codeOf(repo.create({ username }))).toBe(code);
        expect(await repo.count()).toBe(2);
      });

      it("refuses a rename to a lookalike of another account, and allows one to a lookalike of itself", async () => {
        const repo = await factory();
        await repo.create({ username: "admin" });
        const bob = await repo.create({ username: "bob" });
        expect(await codeOf(repo.update({ ...bob, username: "adm\u0131n" }))).toBe("CONFLICT");
        expect(await codeOf(repo.update({ ...bob, username: "b\u043eb" }))).toBe("VALIDATION_FAILED");
        const renamed = await repo.update({ ...bob, username: "BOB" });
        expect(renamed.username).toBe("BOB");
        expect(await repo.findByUsername("bob")).toEqual(renamed);
      });

      it("frees the lookalikes of a deleted or renamed account's name", async () => {
        const repo = await factory();
        const admin = await repo.create({ username: "admin" });
        const user = await repo.create({ username: "user" });
        await repo.delete(admin.id);
        await expect(repo.create({ username: "adm\u0131n" })).resolves.toMatchObject({
          username: "adm\u0131n",
        });
        await repo.update({ ...user, username: "someone" });
        await expect(repo.create({ username: "USER" })).resolves.toMatchObject({ username: "USER" });
      });

      it("lets exactly one of two concurrent creates of lookalike names win", async () => {
        const repo = await factory();
        const results = await Promise.allSettled([
          repo.create({ username: "admin" }),
          repo.create({ username: "adm\u0131n" }),
        ]);
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        const rejected = results.find((r) => r.status === "rejected");
        expect(isPlatformError(rejected?.reason) && rejected.reason.code).toBe("CONFLICT");
      });

      it("accepts names in one script, a Japanese one mixing Han, Hiragana and Katakana included", async () => {
        const repo = await factory();
        for (const username of [
          "山田たろうタロウ",
          "yamadaたろう",
          "\u0430\u0434\u043c\u0438\u043d",
          "josé",
          "שלום1",
        ]) {
          const created = await repo.create({ username });
          expect(await repo.findByUsername(username), username).toEqual(created);
        }
      });

      it("names the broken rule in the refusal", async () => {
        const repo = await factory();
        const error = await repo.create({ username: "\u0430dmin" }).catch((e: unknown) => e);
        expect(error).toMatchObject({
          code: "VALIDATION_FAILED",
          details: { issues: [{ path: "username", reason: "mixed-script" }] },
        });
        expect((error as Error).message).toContain("one script");
      });
    });

    describe("update (compare-and-set on version)", () => {
      it("stores the changes and bumps the version", async () => {
        const repo = await factory();
        const created = await repo.create(alice);
        const updated = await repo.update({ ...created, locked: true, authorities: ["ROLE_ADMIN"] });
        expect(updated).toMatchObject({
          id: created.id,
          locked: true,
          authorities: ["ROLE_ADMIN"],
          version: 2,
        });
        expect(updated.createdAt).toBe(created.createdAt);
        expect(await repo.findById(created.id)).toEqual(updated);
      });

      it("stores the security stamp as given and removes it when absent", async () => {
        const repo = await factory();
        const created = await repo.create(alice);
        expect(created.securityStamp).toBeUndefined();
        const stamped = await repo.update({ ...created, securityStamp: "stamp-1" });
        expect(stamped.securityStamp).toBe("stamp-1");
        expect((await repo.findById(created.id))?.securityStamp).toBe("stamp-1");
        expect((await repo.findByUsername(alice.username))?.securityStamp).toBe("stamp-1");
        const cleared = await repo.update({ ...stamped, securityStamp: undefined });
        expect((await repo.findById(created.id))?.securityStamp).toBeUndefined();
        expect(cleared.version).toBe(3);
      });

      it("refuses a stale version with CONFLICT and leaves the stored account unchanged", async () => {
        const repo = await factory();
        const created = await repo.create(alice);
        const first = await repo.update({ ...created, enabled: false });
        expect(await codeOf(repo.update({ ...created, locked: true }))).toBe("CONFLICT");
        expect(await codeOf(repo.update({ ...created, version: 99 }))).toBe("CONFLICT");
        expect(await repo.findById(created.id)).toEqual(first);
      });

      it("lets exactly one of two concurrent updates from the same version win", async () => {
        const repo = await factory();
        const created = await repo.create(alice);
        const results = await Promise.allSettled([
          repo.update({ ...created, locked: true }),
          repo.update({ ...created, enabled: false }),
        ]);
        const won = results.filter((r) => r.status === "fulfilled");
        expect(won).toHaveLength(1);
        const rejected = results.find((r) => r.status === "rejected");
        expect(isPlatformError(rejected?.reason) && rejected.reason.code).toBe("CONFLICT");
        expect((await repo.findById(created.id))?.version).toBe(2);
      });

      it("keeps id and createdAt from the store", async () => {
        const repo = await factory();
        const created = await repo.create(alice);
        const updated = await repo.update({ ...created, createdAt: 0 });
        expect(updated.createdAt).toBe(created.createdAt);
      });

      it("renames: the old name frees up, the new one is found, a taken one is refused", async () => {
        const repo = await factory();
        const a = await repo.create(alice);
        await repo.create({ username: "bob" });
        expect(await codeOf(repo.update({ ...a, username: "BOB" }))).toBe("CONFLICT");
        const renamed = await repo.update({ ...a, username: "ALICE" });
        expect(renamed.username).toBe("ALICE");
        const moved = await repo.update({ ...renamed, username: "alicia" });
        expect(await repo.findByUsername("alice")).toBeUndefined();
        expect(await repo.findByUsername("Alicia")).toEqual(moved);
        await expect(repo.create({ username: "alice" })).resolves.toMatchObject({ username: "alice" });
      });

      it("refuses an unknown id with NOT_FOUND", async () => {
        const repo = await factory();
        const created = await repo.create(alice);
        expect(await codeOf(repo.update({ ...created, id: "no-such-id" }))).toBe("NOT_FOUND");
      });
    });

    describe("copies, not aliases", () => {
      it("is not changed by mutating a returned account or its authorities", async () => {
        const repo = await factory();
        const created = await repo.create(alice);
        const found = (await repo.findById(created.id))!;
        const mutable = found as { -readonly [K in keyof UserAccount]: UserAccount[K] };
        mutable.locked = true;
        (found.authorities as string[]).push("ROLE_ADMIN");
        (created.authorities as string[]).push("ROLE_ROOT");
        const again = await repo.findById(created.id);
        expect(again).toMatchObject({ locked: false, authorities: ["ROLE_USER"] });
        expect(again).not.toBe(found);
      });

      it("is not changed by mutating the input of create or update afterwards", async () => {
        const repo = await factory();
        const authorities = ["ROLE_USER"];
        const created = await repo.create({ username: "dave", authorities });
        authorities.push("ROLE_ADMIN");
        expect((await repo.findById(created.id))?.authorities).toEqual(["ROLE_USER"]);
        const input = { ...created, authorities: ["ROLE_OPS"] };
        await repo.update(input);
        input.authorities.push("ROLE_ADMIN");
        input.enabled = false;
        expect(await repo.findById(created.id)).toMatchObject({ authorities: ["ROLE_OPS"], enabled: true });
      });
    });

    describe("delete and count", () => {
      it("deletes once, frees the username and counts", async () => {
        const repo = await factory();
        expect(await repo.count()).toBe(0);
        const a = await repo.create(alice);
        await repo.create({ username: "bob" });
        expect(await repo.count()).toBe(2);
        expect(await repo.delete(a.id)).toBe(true);
        expect(await repo.delete(a.id)).toBe(false);
        expect(await repo.delete("no-such-id")).toBe(false);
        expect(await repo.count()).toBe(1);
        expect(await repo.findById(a.id)).toBeUndefined();
        expect(await repo.findByUsername("alice")).toBeUndefined();
        const again = await repo.create({ username: "ALICE" });
        expect(again.id).not.toBe(a.id);
        expect(await repo.count()).toBe(2);
      });

      it("refuses to update a deleted account", async () => {
        const repo = await factory();
        const a = await repo.create(alice);
        await repo.delete(a.id);
        expect(await codeOf(repo.update(a))).toBe("NOT_FOUND");
      });
    });

    describe("list", () => {
      it("pages accounts ordered by username key, as copies", async () => {
        const repo = await factory();
        for (const name of ["carol", "Alice", "bob", "dave"]) await repo.create({ username: name });
        expect((await repo.list()).map((u) => u.username)).toEqual(["Alice", "bob", "carol", "dave"]);
        expect((await repo.list({ offset: 1, limit: 2 })).map((u) => u.username)).toEqual(["bob", "carol"]);
        expect(await repo.list({ offset: 10 })).toEqual([]);
        const [first] = await repo.list({ limit: 1 });
        first!.authorities = ["ROLE_ADMIN"];
        expect((await repo.findByUsername("alice"))?.authorities).toEqual([]);
      });

      it("filters by a username substring, case- and width-insensitively", async () => {
        const repo = await factory();
        for (const name of ["Alice", "malice", "bob"]) await repo.create({ username: name });
        expect((await repo.list({ text: "ALIC" })).map((u) => u.username)).toEqual(["Alice", "malice"]);
        expect((await repo.list({ text: "ＢＯＢ" })).map((u) => u.username)).toEqual(["bob"]);
        expect(await repo.list({ text: "zed" })).toEqual([]);
      });

      it("caps the page size at 500 and defaults to 50", async () => {
        const repo = await factory();
        for (let i = 0; i < 60; i++) await repo.create({ username: `user${String(i).padStart(2, "0")}` });
        expect(await repo.list()).toHaveLength(50);
        expect(await repo.list({ limit: 10_000 })).toHaveLength(60);
        expect(await repo.list({ limit: 0 })).toHaveLength(1);
      });
    });

    describeUserRepositoryEmailContract(factory);
  });
}
