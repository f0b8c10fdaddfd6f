import { describe, expect, it } from "vitest";
import type { RecoveryCodeStore } from "./recovery-code-store.js";

/** The RecoveryCodeStore contract: every adapter runs it (`factory` gives an empty store). */
export function describeRecoveryCodeStoreContract(
  name: string,
  factory: () => Promise<RecoveryCodeStore>,
): void {
  describe(`RecoveryCodeStore contract: ${name}`, () => {
    const hashes = ["h-1", "h-2", "h-3"];

    it("spends each code once, counts what is left, and keeps accounts apart", async () => {
      const store = await factory();
      expect(await store.remaining("u-1")).toBe(0);
      expect(await store.spend("u-1", "h-1")).toBe(false);
      await store.replace("u-1", hashes, 1);
      await store.replace("u-2", ["h-1"], 1);
      expect(await store.remaining("u-1")).toBe(3);
      expect(await store.spend("u-1", "h-2")).toBe(true);
      expect(await store.spend("u-1", "h-2")).toBe(false);
      expect(await store.spend("u-1", "nope")).toBe(false);
      expect(await store.remaining("u-1")).toBe(2);
      expect(await store.remaining("u-2")).toBe(1);
      expect(await store.spend("u-2", "h-3")).toBe(false);
    });

    it("replaces a whole set: the old codes are void, spent ones come back only if reissued", async () => {
      const store = await factory();
      await store.replace("u-1", hashes, 1);
      await store.spend("u-1", "h-1");
      await store.replace("u-1", ["n-1", "n-2"], 2);
      expect(await store.remaining("u-1")).toBe(2);
      expect(await store.spend("u-1", "h-2")).toBe(false);
      expect(await store.spend("u-1", "n-1")).toBe(true);
      await store.replace("u-1", [], 3);
      expect(await store.remaining("u-1")).toBe(0);
    });

    it("lets exactly one of concurrent spends of a code win", async () => {
      const store = await factory();
      await store.replace("u-1", hashes, 1);
      const wins = await Promise.all(Array.from({ length: 8 }, () => store.spend("u-1", "h-3")));
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect(await store.remaining("u-1")).toBe(2);
    });

    it("removes a set", async () => {
      const store = await factory();
      await store.replace("u-1", hashes, 1);
      expect(await store.remove("u-1")).toBe(true);
      expect(await store.remove("u-1")).toBe(false);
      expect(await store.remaining("u-1")).toBe(0);
      expect(await store.spend("u-1", "h-1")).toBe(false);
    });
  });
}
