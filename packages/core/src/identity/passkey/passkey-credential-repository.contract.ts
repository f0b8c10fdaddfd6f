import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { NewPasskeyCredential, PasskeyCredential } from "./passkey-credential.js";
import type { PasskeyCredentialRepository } from "./passkey-credential-repository.js";
import { codeOf } from "../../kernel/error-code.test-support.js";

/** A credential to store; `id` and `userId` vary per test. */
export function newPasskeyCredential(overrides: Partial<NewPasskeyCredential> = {}): NewPasskeyCredential {
  return {
    id: "Y3JlZC0x",
    userId: "user-1",
    userHandle: "aGFuZGxlLTE",
    publicKey: "pQECAyYgASFYIA",
    counter: 0,
    transports: ["internal", "hybrid"],
    deviceType: "multiDevice",
    backedUp: true,
    aaguid: "00000000-0000-0000-0000-000000000000",
    label: "Laptop",
    ...overrides,
  };
}

/**
 * The behaviour every PasskeyCredentialRepository adapter must show. `factory` returns a fresh, empty
 * repository for each test that stamps `createdAt` from the given clock.
 */
export function describePasskeyCredentialRepositoryContract(
  name: string,
  factory: (clock: ManualClock) => Promise<PasskeyCredentialRepository> | PasskeyCredentialRepository,
): void {
  describe(`PasskeyCredentialRepository contract: ${name}`, () => {
    async function setup() {
      const clock = new ManualClock(1_000);
      return { clock, repo: await factory(clock) };
    }

    describe("create and find", () => {
      it("stores every field, stamps createdAt from the clock, version 1, never used", async () => {
        const { repo } = await setup();
        const input = newPasskeyCredential();
        const created = await repo.create(input);
        expect(created).toEqual({ ...input, createdAt: 1_000, lastUsedAt: undefined, version: 1 });
        expect(await repo.findById(input.id)).toEqual(created);
      });

      it("finds nothing for an unknown id", async () => {
        const { repo } = await setup();
        await repo.create(newPasskeyCredential());
        expect(await repo.findById("dW5rbm93bg")).toBeUndefined();
      });

      it("refuses a duplicate id with CONFLICT, for the same or another user", async () => {
        const { repo } = await setup();
        const first = await repo.create(newPasskeyCredential());
        expect(await codeOf(repo.create(newPasskeyCredential({ label: "again" })))).toBe("CONFLICT");
        expect(await codeOf(repo.create(newPasskeyCredential({ userId: "user-2" })))).toBe("CONFLICT");
        expect(await repo.findById(first.id)).toEqual(first);
      });

      it("lets exactly one of two concurrent creates of one id win", async () => {
        const { repo } = await setup();
        const results = await Promise.allSettled([
          repo.create(newPasskeyCredential({ userId: "user-1" })),
          repo.create(newPasskeyCredential({ userId: "user-2" })),
        ]);
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        const rejected = results.find((r) => r.status === "rejected");
        expect(isPlatformError(rejected?.reason) && rejected.reason.code).toBe("CONFLICT");
      });
    });

    describe("listByUser", () => {
      it("lists only the user's credentials, oldest first", async () => {
        const { repo, clock } = await setup();
        await repo.create(newPasskeyCredential({ id: "YQ", label: "a" }));
        clock.advance(10);
        await repo.create(newPasskeyCredential({ id: "Yg", userId: "user-2", label: "b" }));
        clock.advance(10);
        await repo.create(newPasskeyCredential({ id: "Yw", label: "c" }));
        expect((await repo.listByUser("user-1")).map((c) => c.label)).toEqual(["a", "c"]);
        expect((await repo.listByUser("user-2")).map((c) => c.label)).toEqual(["b"]);
        expect(await repo.listByUser("nobody")).toEqual([]);
      });
    });

    describe("user handles", () => {
      it("assigns a handle once and maps it both ways", async () => {
        const { repo } = await setup();
        expect(await repo.findUserHandle("user-1")).toBeUndefined();
        expect(await repo.saveUserHandle("user-1", "aDE")).toBe("aDE");
        expect(await repo.saveUserHandle("user-1", "aDI")).toBe("aDE");
        expect(await repo.findUserHandle("user-1")).toBe("aDE");
        expect(await repo.userIdForHandle("aDE")).toBe("user-1");
        expect(await repo.userIdForHandle("aDI")).toBeUndefined();
      });

      it("refuses another user's handle with CONFLICT", async () => {
        const { repo } = await setup();
        await repo.saveUserHandle("user-1", "aDE");
        expect(await codeOf(repo.saveUserHandle("user-2", "aDE"))).toBe("CONFLICT");
        expect(await repo.findUserHandle("user-2")).toBeUndefined();
      });

      it("gives both of two concurrent first assignments the same handle", async () => {
        const { repo } = await setup();
        const [a, b] = await Promise.all([
          repo.saveUserHandle("user-1", "aDE"),
          repo.saveUserHandle("user-1", "aDI"),
        ]);
        expect(a).toBe(b);
        expect(await repo.findUserHandle("user-1")).toBe(a);
      });
    });

    describe("updateCounter (compare-and-set on version)", () => {
      it("sets counter and lastUsedAt and bumps the version", async () => {
        const { repo } = await setup();
        const created = await repo.create(newPasskeyCredential());
        const updated = await repo.updateCounter(created.id, 1, 7, 5_000);
        expect(updated).toEqual({ ...created, counter: 7, lastUsedAt: 5_000, version: 2 });
        expect(await repo.findById(created.id)).toEqual(updated);
      });

      it("refuses a stale version with CONFLICT and changes nothing", async () => {
        const { repo } = await setup();
        const created = await repo.create(newPasskeyCredential());
        const first = await repo.updateCounter(created.id, 1, 3, 2_000);
        expect(await codeOf(repo.updateCounter(created.id, 1, 9, 3_000))).toBe("CONFLICT");
        expect(await repo.findById(created.id)).toEqual(first);
      });

      it("lets exactly one of two concurrent updates from one version win", async () => {
        const { repo } = await setup();
        const created = await repo.create(newPasskeyCredential());
        const results = await Promise.allSettled([
          repo.updateCounter(created.id, 1, 1, 2_000),
          repo.updateCounter(created.id, 1, 2, 2_000),
        ]);
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        expect((await repo.findById(created.id))?.version).toBe(2);
      });

      it("refuses an unknown id with NOT_FOUND", async () => {
        const { repo } = await setup();
        expect(await codeOf(repo.updateCounter("dW5rbm93bg", 1, 1, 1))).toBe("NOT_FOUND");
      });
    });

    describe("delete", () => {
      it("deletes only the owner's credential, once", async () => {
        const { repo } = await setup();
        const created = await repo.create(newPasskeyCredential());
        expect(await repo.delete(created.id, "user-2")).toBe(false);
        expect(await repo.findById(created.id)).toEqual(created);
        expect(await repo.delete(created.id, "user-1")).toBe(true);
        expect(await repo.delete(created.id, "user-1")).toBe(false);
        expect(await repo.delete("dW5rbm93bg", "user-1")).toBe(false);
        expect(await repo.findById(created.id)).toBeUndefined();
        expect(await repo.listByUser("user-1")).toEqual([]);
      });

      it("keeps the user's handle after their last credential is deleted", async () => {
        const { repo } = await setup();
        await repo.saveUserHandle("user-1", "aDE");
        const created = await repo.create(newPasskeyCredential());
        await repo.delete(created.id, "user-1");
        expect(await repo.findUserHandle("user-1")).toBe("aDE");
      });
    });

    describe("copies, not aliases", () => {
      it("is not changed by mutating returned records or the input", async () => {
        const { repo } = await setup();
        const input = { ...newPasskeyCredential(), transports: ["usb"] };
        const created = await repo.create(input);
        input.transports.push("nfc");
        input.label = "changed";
        const found = (await repo.findById(created.id)) as PasskeyCredential;
        found.counter = 99;
        (found.transports as string[]).push("ble");
        (created.transports as string[]).push("hybrid");
        expect(await repo.findById(created.id)).toMatchObject({
          counter: 0,
          label: "Laptop",
          transports: ["usb"],
        });
      });
    });
  });
}
