import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import {
  hashRefreshToken,
  type NewRefreshTokenRecord,
  type RefreshTokenStore,
} from "./refresh-token-store.js";
import { codeOf } from "../../kernel/error-code.test-support.js";

/**
 * The behaviour every RefreshTokenStore adapter must show. `factory` returns a fresh, empty store that
 * reads time from the given clock (the in-memory adapter always runs it; a database one when it can).
 */
export function describeRefreshTokenStoreContract(
  name: string,
  factory: (context: { clock: ManualClock }) => Promise<RefreshTokenStore> | RefreshTokenStore,
): void {
  describe(`RefreshTokenStore contract: ${name}`, () => {
    const HOUR = 3_600_000;
    let n = 0;
    const setup = async () => {
      const clock = new ManualClock();
      const store = await factory({ clock });
      const record = (over: Partial<NewRefreshTokenRecord> = {}): NewRefreshTokenRecord => {
        n++;
        return {
          id: `rt-${n}`,
          tokenHash: hashRefreshToken(`token-${n}`),
          familyId: "family-1",
          userId: "user-1",
          authentication: {
            username: "alice",
            authorities: ["ROLE_USER"],
            method: "rest",
            authenticatedAt: clock.now() - 1000,
            factors: [{ type: "pwd", at: clock.now() - 1000 }],
          },
          expiresAt: clock.now() + HOUR,
          ...over,
        };
      };
      return { clock, store, record };
    };

    describe("create and findByHash", () => {
      it("stores an active record at version 1 and finds it by hash", async () => {
        const { store, record } = await setup();
        const input = record();
        const created = await store.create(input);
        expect(created).toEqual({ ...input, status: "active", version: 1 });
        expect(await store.findByHash(input.tokenHash)).toEqual(created);
      });

      it("finds nothing for an unknown hash", async () => {
        const { store, record } = await setup();
        await store.create(record());
        expect(await store.findByHash(hashRefreshToken("unknown"))).toBeUndefined();
        expect(await store.findByHash("")).toBeUndefined();
      });

      it("refuses a duplicate token hash or id with CONFLICT", async () => {
        const { store, record } = await setup();
        const first = record();
        await store.create(first);
        expect(await codeOf(store.create(record({ tokenHash: first.tokenHash })))).toBe("CONFLICT");
        expect(await codeOf(store.create(record({ id: first.id })))).toBe("CONFLICT");
      });

      it("treats a record as absent from its expiresAt on", async () => {
        const { clock, store, record } = await setup();
        const input = record();
        await store.create(input);
        clock.advance(HOUR - 1);
        expect(await store.findByHash(input.tokenHash)).toBeDefined();
        clock.advance(1);
        expect(await store.findByHash(input.tokenHash)).toBeUndefined();
      });

      it("returns copies: mutating a result or the input changes nothing stored", async () => {
        const { store, record } = await setup();
        const input = record();
        const created = await store.create(input);
        (created.authentication.authorities as string[]).push("ROLE_ADMIN");
        (input.authentication.authorities as string[]).push("ROLE_ROOT");
        const found = await store.findByHash(input.tokenHash);
        const factor = found?.authentication.factors[0] as { type: string } | undefined;
        if (factor) factor.type = "otp";
        expect((await store.findByHash(input.tokenHash))?.authentication).toMatchObject({
          authorities: ["ROLE_USER"],
          factors: [{ type: "pwd" }],
        });
      });
    });

    describe("compareAndSetStatus", () => {
      it("changes the status, bumps the version and returns the record", async () => {
        const { store, record } = await setup();
        const created = await store.create(record());
        const rotated = await store.compareAndSetStatus(created.id, 1, "rotated");
        expect(rotated).toEqual({ ...created, status: "rotated", version: 2 });
        expect(await store.findByHash(created.tokenHash)).toEqual(rotated);
      });

      it("returns undefined and changes nothing on a stale version or an unknown id", async () => {
        const { store, record } = await setup();
        const created = await store.create(record());
        expect(await store.compareAndSetStatus(created.id, 2, "rotated")).toBeUndefined();
        expect(await store.compareAndSetStatus("no-such-id", 1, "rotated")).toBeUndefined();
        expect(await store.findByHash(created.tokenHash)).toEqual(created);
      });

      it("lets exactly one of two concurrent rotations from the same version win", async () => {
        const { store, record } = await setup();
        const created = await store.create(record());
        const results = await Promise.all([
          store.compareAndSetStatus(created.id, 1, "rotated"),
          store.compareAndSetStatus(created.id, 1, "rotated"),
        ]);
        expect(results.filter((r) => r !== undefined)).toHaveLength(1);
        expect((await store.findByHash(created.tokenHash))?.version).toBe(2);
      });

      it("refuses to change an expired record", async () => {
        const { clock, store, record } = await setup();
        const created = await store.create(record());
        clock.advance(HOUR);
        expect(await store.compareAndSetStatus(created.id, 1, "rotated")).toBeUndefined();
      });

      it("keeps revoked final, even with the current version", async () => {
        const { store, record } = await setup();
        const created = await store.create(record());
        const revoked = await store.compareAndSetStatus(created.id, 1, "revoked");
        expect(revoked?.status).toBe("revoked");
        expect(await store.compareAndSetStatus(created.id, 2, "active")).toBeUndefined();
        expect((await store.findByHash(created.tokenHash))?.status).toBe("revoked");
      });
    });

    describe("rotate", () => {
      const WINDOW = 5000;

      it("spends an active token: rotated, version bumped, rotatedAt now", async () => {
        const { clock, store, record } = await setup();
        const created = await store.create(record());
        clock.advance(7);
        const rotation = await store.rotate(created.tokenHash, WINDOW);
        const spent = { ...created, status: "rotated", rotatedAt: clock.now(), version: 2 };
        expect(rotation).toEqual({ outcome: "rotated", record: spent });
        expect(await store.findByHash(created.tokenHash)).toEqual(spent);
      });

      it("lets exactly one of 50 concurrent rotations win; the others lost a race", async () => {
        const { store, record } = await setup();
        const created = await store.create(record());
        const results = await Promise.all(
          Array.from({ length: 50 }, () => store.rotate(created.tokenHash, WINDOW)),
        );
        const outcomes = results.map((r) => r.outcome);
        expect(outcomes.filter((o) => o === "rotated")).toHaveLength(1);
        expect(outcomes.filter((o) => o === "raced")).toHaveLength(49);
        expect(await store.findByHash(created.tokenHash)).toMatchObject({ status: "rotated", version: 2 });
      });

      it("says raced within the window and reused from its end on, changing nothing", async () => {
        const { clock, store, record } = await setup();
        const created = await store.create(record());
        await store.rotate(created.tokenHash, WINDOW);
        const spent = await store.findByHash(created.tokenHash);
        clock.advance(WINDOW - 1);
        expect(await store.rotate(created.tokenHash, WINDOW)).toEqual({ outcome: "raced", record: spent });
        clock.advance(1);
        expect(await store.rotate(created.tokenHash, WINDOW)).toEqual({ outcome: "reused", record: spent });
        expect(await store.findByHash(created.tokenHash)).toEqual(spent);
      });

      it("counts a token rotated without a rotatedAt (compareAndSetStatus) as reused", async () => {
        const { store, record } = await setup();
        const created = await store.create(record());
        await store.compareAndSetStatus(created.id, 1, "rotated");
        expect((await store.rotate(created.tokenHash, WINDOW)).outcome).toBe("reused");
      });

      it("says revoked for a revoked token, unknown for an unknown or expired one", async () => {
        const { clock, store, record } = await setup();
        const revoked = await store.create(record());
        await store.revokeFamily(revoked.familyId);
        expect(await store.rotate(revoked.tokenHash, WINDOW)).toMatchObject({
          outcome: "revoked",
          record: { status: "revoked", version: 2 },
        });
        expect(await store.rotate(hashRefreshToken("unknown"), WINDOW)).toEqual({ outcome: "unknown" });
        const expiring = await store.create(record({ familyId: "family-2", expiresAt: clock.now() + 10 }));
        clock.advance(10);
        expect(await store.rotate(expiring.tokenHash, WINDOW)).toEqual({ outcome: "unknown" });
      });
    });

    describe("revokeFamily and revokeAllForUser", () => {
      it("revokes every record of the family, bumping versions, and nothing else", async () => {
        const { store, record } = await setup();
        const a = await store.create(record());
        await store.compareAndSetStatus(a.id, 1, "rotated");
        const b = await store.create(record());
        const other = await store.create(record({ familyId: "family-2" }));
        expect(await store.revokeFamily("family-1")).toBe(2);
        expect(await store.findByHash(a.tokenHash)).toMatchObject({ status: "revoked", version: 3 });
        expect(await store.findByHash(b.tokenHash)).toMatchObject({ status: "revoked", version: 2 });
        expect(await store.findByHash(other.tokenHash)).toEqual(other);
        expect(await store.compareAndSetStatus(b.id, 1, "rotated")).toBeUndefined();
        expect(await store.revokeFamily("family-1")).toBe(0);
        expect(await store.revokeFamily("no-such-family")).toBe(0);
      });

      it("revokes every record of the user across families, and nobody else's", async () => {
        const { store, record } = await setup();
        const a = await store.create(record());
        const b = await store.create(record({ familyId: "family-2" }));
        const bob = await store.create(record({ userId: "user-2", familyId: "family-3" }));
        expect((await store.revokeAllForUser("user-1")).sort()).toEqual(["family-1", "family-2"]);
        expect((await store.findByHash(a.tokenHash))?.status).toBe("revoked");
        expect((await store.findByHash(b.tokenHash))?.status).toBe("revoked");
        expect(await store.findByHash(bob.tokenHash)).toEqual(bob);
      });

      it("does not count expired records", async () => {
        const { clock, store, record } = await setup();
        await store.create(record({ expiresAt: clock.now() + 10 }));
        await store.create(record());
        clock.advance(10);
        expect(await store.revokeFamily("family-1")).toBe(1);
      });
    });
  });
}
