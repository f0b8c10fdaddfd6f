import { describe, expect, it } from "vitest";
import type { Authentication } from "../../identity/authentication/authentication.js";
import { type Clock, ManualClock } from "../../kernel/clock.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { Escalation } from "./escalation.js";
import type { EscalationStore } from "./escalation-store.js";
import { codeOf } from "../../kernel/error-code.test-support.js";

const primary: Authentication = {
  userId: "u-1",
  username: "alice",
  authorities: ["ROLE_USER"],
  method: "form",
  authenticatedAt: 1_000,
  factors: [{ type: "pwd", at: 1_000 }],
};

const TTL = 60_000;

function escalation(id: string, now: number, overrides: Partial<Escalation> = {}): Escalation {
  return {
    id,
    userId: primary.userId,
    username: primary.username,
    primary: structuredClone(primary),
    flowTypeName: "mfa",
    reason: "new network",
    status: "PENDING",
    createdAt: now,
    expiresAt: now + TTL,
    callerBinding: "binding-1",
    remoteAddress: "203.0.113.7",
    version: 0,
    ...overrides,
  };
}

/**
 * The behaviour every EscalationStore adapter must show. `factory` returns a fresh, empty store
 * reading time from `clock` and keeping escalations for at least a minute past their `expiresAt`.
 */
export function describeEscalationStoreContract(
  name: string,
  factory: (clock: Clock) => Promise<EscalationStore> | EscalationStore,
): void {
  describe(`EscalationStore contract: ${name}`, () => {
    const setup = async () => {
      const clock = new ManualClock(10_000);
      return { clock, store: await factory(clock) };
    };

    describe("create and find", () => {
      it("stores version 1 whatever the input says and finds an equal copy", async () => {
        const { clock, store } = await setup();
        const created = await store.create(escalation("e-1", clock.now(), { version: 7 }));
        expect(created).toEqual(escalation("e-1", clock.now(), { version: 1 }));
        expect(await store.find("e-1")).toEqual(created);
      });

      it("refuses a second create of an id with CONFLICT and keeps the first", async () => {
        const { clock, store } = await setup();
        const first = await store.create(escalation("e-1", clock.now()));
        expect(await codeOf(store.create(escalation("e-1", clock.now(), { reason: "other" })))).toBe(
          "CONFLICT",
        );
        expect(await store.find("e-1")).toEqual(first);
      });

      it("finds nothing for an unknown id and refuses an empty id", async () => {
        const { clock, store } = await setup();
        expect(await store.find("nope")).toBeUndefined();
        expect(await codeOf(store.create(escalation("", clock.now())))).toBe("VALIDATION_FAILED");
      });
    });

    describe("listPending", () => {
      it("lists pending, unexpired escalations oldest first", async () => {
        const { clock, store } = await setup();
        await store.create(escalation("late", clock.now() + 5));
        await store.create(escalation("early", clock.now()));
        const decided = await store.create(escalation("decided", clock.now()));
        await store.compareAndSet({ ...decided, status: "REJECTED", decidedBy: "root" });
        await store.create(escalation("short", clock.now(), { expiresAt: clock.now() + 10 }));
        clock.advance(10);
        expect((await store.listPending()).map((e) => e.id)).toEqual(["early", "late"]);
      });
    });

    describe("compareAndSet (on version)", () => {
      it("stores the changes and bumps the version", async () => {
        const { clock, store } = await setup();
        const created = await store.create(escalation("e-1", clock.now()));
        const saved = await store.compareAndSet({ ...created, status: "APPROVED", decidedBy: "root" });
        expect(saved).toMatchObject({ status: "APPROVED", decidedBy: "root", version: 2 });
        expect(await store.find("e-1")).toEqual(saved);
        expect((await store.compareAndSet({ ...saved, status: "COMPLETED" })).version).toBe(3);
      });

      it("refuses a stale or future version with CONFLICT and leaves the stored one unchanged", async () => {
        const { clock, store } = await setup();
        const created = await store.create(escalation("e-1", clock.now()));
        const first = await store.compareAndSet({ ...created, status: "REJECTED" });
        expect(await codeOf(store.compareAndSet({ ...created, status: "APPROVED" }))).toBe("CONFLICT");
        expect(await codeOf(store.compareAndSet({ ...created, version: 99 }))).toBe("CONFLICT");
        expect(await store.find("e-1")).toEqual(first);
      });

      it("lets exactly one of two concurrent writes of one version win", async () => {
        const { clock, store } = await setup();
        const created = await store.create(escalation("e-1", clock.now()));
        const results = await Promise.allSettled([
          store.compareAndSet({ ...created, status: "APPROVED", decidedBy: "root" }),
          store.compareAndSet({ ...created, status: "REJECTED", decidedBy: "bob" }),
        ]);
        const won = results.filter((r) => r.status === "fulfilled");
        expect(won).toHaveLength(1);
        const lost = results.find((r) => r.status === "rejected");
        expect(isPlatformError(lost?.reason) && lost.reason.code).toBe("CONFLICT");
        const stored = await store.find("e-1");
        expect(stored?.version).toBe(2);
        expect(won[0]?.status === "fulfilled" && won[0].value).toEqual(stored);
      });

      it("keeps createdAt and callerBinding from the store", async () => {
        const { clock, store } = await setup();
        const created = await store.create(escalation("e-1", clock.now()));
        const saved = await store.compareAndSet({ ...created, createdAt: 0, callerBinding: "someone-else" });
        expect(saved).toMatchObject({ createdAt: created.createdAt, callerBinding: "binding-1" });
      });

      it("refuses an unknown id with NOT_FOUND", async () => {
        const { clock, store } = await setup();
        const created = await store.create(escalation("e-1", clock.now()));
        expect(await codeOf(store.compareAndSet({ ...created, id: "nope" }))).toBe("NOT_FOUND");
      });
    });

    describe("expiry", () => {
      it("reads a pending escalation as EXPIRED from expiresAt on and refuses to write it", async () => {
        const { clock, store } = await setup();
        const created = await store.create(escalation("e-1", clock.now()));
        clock.advance(TTL - 1);
        expect((await store.find("e-1"))?.status).toBe("PENDING");
        clock.advance(1);
        expect(await store.find("e-1")).toEqual({ ...created, status: "EXPIRED" });
        expect(await store.listPending()).toEqual([]);
        expect(await codeOf(store.compareAndSet({ ...created, status: "APPROVED" }))).toBe("CONFLICT");
      });

      it("expires an unclaimed approval too, but keeps REJECTED and COMPLETED as they are", async () => {
        const { clock, store } = await setup();
        for (const id of ["a", "r", "c"]) await store.create(escalation(id, clock.now()));
        const a = (await store.find("a"))!;
        await store.compareAndSet({ ...a, status: "APPROVED" });
        await store.compareAndSet({ ...(await store.find("r"))!, status: "REJECTED" });
        await store.compareAndSet({ ...(await store.find("c"))!, status: "COMPLETED" });
        clock.advance(TTL);
        expect((await store.find("a"))?.status).toBe("EXPIRED");
        expect((await store.find("r"))?.status).toBe("REJECTED");
        expect((await store.find("c"))?.status).toBe("COMPLETED");
      });
    });

    describe("copies, not aliases", () => {
      it("is not changed by mutating what it returned or what it was given", async () => {
        const { clock, store } = await setup();
        const input = escalation("e-1", clock.now());
        const created = await store.create(input);
        const snapshot = structuredClone(created);
        (input.primary.authorities as string[]).push("ROLE_ADMIN");
        (created.primary.factors as unknown[]).push({ type: "otp", at: 0 });
        const found = (await store.find("e-1"))!;
        (found.primary.authorities as string[]).push("ROLE_ADMIN");
        const listed = (await store.listPending())[0]!;
        (listed.primary.authorities as string[]).push("ROLE_ROOT");
        expect(await store.find("e-1")).toEqual(snapshot);
        const toSave = { ...snapshot, primary: { ...snapshot.primary, authorities: ["ROLE_USER"] } };
        await store.compareAndSet(toSave);
        toSave.primary.authorities.push("ROLE_ADMIN");
        expect((await store.find("e-1"))?.primary.authorities).toEqual(["ROLE_USER"]);
      });
    });
  });
}
