import { describe, expect, it } from "vitest";
import type { TotpEnrolmentStore } from "./totp-enrolment-store.js";

/** The TotpEnrolmentStore contract: every adapter runs it (`factory` gives an empty store). */
export function describeTotpEnrolmentStoreContract(
  name: string,
  factory: () => Promise<TotpEnrolmentStore>,
): void {
  describe(`TotpEnrolmentStore contract: ${name}`, () => {
    const start = { userId: "u-1", sealedSecret: "s-1", createdAt: 1 };

    it("begins unconfirmed, replaces an unconfirmed enrolment, never a confirmed one", async () => {
      const store = await factory();
      expect(await store.begin(start)).toBe(true);
      expect(await store.find("u-1")).toMatchObject({ confirmed: false, sealedSecret: "s-1" });
      expect(await store.begin({ ...start, sealedSecret: "s-2" })).toBe(true);
      expect(await store.confirm("u-1", "s-1", 10)).toBe(false);
      expect(await store.confirm("u-1", "s-2", 10)).toBe(true);
      expect(await store.begin({ ...start, sealedSecret: "s-3" })).toBe(false);
      expect(await store.find("u-1")).toMatchObject({ confirmed: true, sealedSecret: "s-2", lastStep: 10 });
      expect(await store.find("u-2")).toBeUndefined();
    });

    it("claims a step once, and never one at or before the last claimed", async () => {
      const store = await factory();
      await store.begin(start);
      expect(await store.claimStep("u-1", 5)).toBe(false);
      await store.confirm("u-1", "s-1", 10);
      expect(await store.claimStep("u-1", 10)).toBe(false);
      expect(await store.claimStep("u-1", 9)).toBe(false);
      expect(await store.claimStep("u-1", 11)).toBe(true);
      expect(await store.claimStep("u-1", 11)).toBe(false);
      expect(await store.claimStep("nobody", 12)).toBe(false);
    });

    it("lets exactly one of concurrent claims of a step win", async () => {
      const store = await factory();
      await store.begin(start);
      await store.confirm("u-1", "s-1", 1);
      const wins = await Promise.all(Array.from({ length: 8 }, () => store.claimStep("u-1", 2)));
      expect(wins.filter(Boolean)).toHaveLength(1);
    });

    it("counts wrong confirmation codes and removes the unconfirmed enrolment at the limit", async () => {
      const store = await factory();
      await store.begin(start);
      expect(await store.recordConfirmFailure("u-1", "s-1", 3)).toBe(false);
      expect(await store.recordConfirmFailure("u-1", "other", 3)).toBe(false);
      expect(await store.find("u-1")).toMatchObject({ confirmFailures: 1 });
      expect(await store.recordConfirmFailure("u-1", "s-1", 3)).toBe(false);
      expect(await store.recordConfirmFailure("u-1", "s-1", 3)).toBe(true);
      expect(await store.find("u-1")).toBeUndefined();
      expect(await store.recordConfirmFailure("u-1", "s-1", 3)).toBe(false);
    });

    it("never counts against a confirmed enrolment, and a new start begins the count again", async () => {
      const store = await factory();
      await store.begin(start);
      await store.recordConfirmFailure("u-1", "s-1", 5);
      await store.begin({ ...start, sealedSecret: "s-2" });
      expect((await store.find("u-1"))?.confirmFailures ?? 0).toBe(0);
      await store.confirm("u-1", "s-2", 1);
      expect(await store.recordConfirmFailure("u-1", "s-2", 1)).toBe(false);
      expect(await store.find("u-1")).toMatchObject({ confirmed: true });
    });

    it("removes at the limit exactly once under concurrent wrong codes", async () => {
      const store = await factory();
      await store.begin(start);
      const removed = await Promise.all(
        Array.from({ length: 8 }, () => store.recordConfirmFailure("u-1", "s-1", 5)),
      );
      expect(removed.filter(Boolean)).toHaveLength(1);
      expect(await store.find("u-1")).toBeUndefined();
    });

    it("removes an enrolment", async () => {
      const store = await factory();
      await store.begin(start);
      expect(await store.remove("u-1")).toBe(true);
      expect(await store.remove("u-1")).toBe(false);
      expect(await store.find("u-1")).toBeUndefined();
    });
  });
}
