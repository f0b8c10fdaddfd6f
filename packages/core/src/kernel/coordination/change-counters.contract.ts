import { describe, expect, it } from "vitest";
import { codeOf } from "../error-code.test-support.js";
import type { ChangeCounters } from "./change-counters.js";

const TOPIC = "standing:user-1";

/**
 * The behaviour every ChangeCounters adapter must show. `factory` returns a fresh store with no
 * counter bumped. Bumps from several instances are run as concurrent calls: none may be lost.
 */
export function describeChangeCountersContract(
  name: string,
  factory: () => Promise<ChangeCounters> | ChangeCounters,
): void {
  describe(`ChangeCounters contract: ${name}`, () => {
    describe("bump and read", () => {
      it("reads 0 for a topic never bumped", async () => {
        const counters = await factory();
        expect(await counters.read([TOPIC])).toEqual({ [TOPIC]: 0 });
      });

      it("counts 1, 2, 3… and reads the last value", async () => {
        const counters = await factory();
        expect(await counters.bump(TOPIC)).toBe(1);
        expect(await counters.bump(TOPIC)).toBe(2);
        expect(await counters.bump(TOPIC)).toBe(3);
        expect(await counters.read([TOPIC])).toEqual({ [TOPIC]: 3 });
      });

      it("keeps topics apart", async () => {
        const counters = await factory();
        await counters.bump("a");
        await counters.bump("a");
        expect(await counters.bump("b")).toBe(1);
        expect(await counters.read(["a", "b"])).toEqual({ a: 2, b: 1 });
      });

      it("reads several topics in one call, bumped or not, keyed by topic", async () => {
        const counters = await factory();
        await counters.bump("zero-trust:user-1");
        await counters.bump(TOPIC);
        await counters.bump(TOPIC);
        expect(await counters.read([TOPIC, "never", "zero-trust:user-1", TOPIC])).toEqual({
          [TOPIC]: 2,
          never: 0,
          "zero-trust:user-1": 1,
        });
      });

      it("reads nothing for no topics", async () => {
        const counters = await factory();
        expect(await counters.read([])).toEqual({});
      });

      it("keys every asked topic as its own entry, whatever its name", async () => {
        const counters = await factory();
        const odd = ["__proto__", "constructor", "toString", "a.b", "$inc", "ünïcødé ✓"];
        for (const topic of odd) await counters.bump(topic);
        const read = await counters.read(odd);
        for (const topic of odd) {
          expect(Object.hasOwn(read, topic), topic).toBe(true);
          expect(read[topic], topic).toBe(1);
        }
        expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
      });

      it("refuses a topic that is not 1..128 characters (VALIDATION_FAILED) and counts nothing", async () => {
        const counters = await factory();
        const long = "t".repeat(129);
        for (const topic of ["", long, undefined as unknown as string, 7 as unknown as string])
          expect(await codeOf(counters.bump(topic)), String(topic)).toBe("VALIDATION_FAILED");
        expect(await counters.bump("t".repeat(128))).toBe(1);
      });
    });

    describe("races between instances", () => {
      it("loses no concurrent bump: N bumps end at N, each returning a distinct value", async () => {
        const counters = await factory();
        const n = 12;
        const values = await Promise.all(Array.from({ length: n }, () => counters.bump(TOPIC)));
        expect([...values].sort((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
        expect(await counters.read([TOPIC])).toEqual({ [TOPIC]: n });
      });

      it("loses no concurrent bump across topics", async () => {
        const counters = await factory();
        const topics = ["a", "b", "c"];
        await Promise.all(topics.flatMap((t) => [1, 2, 3, 4].map(() => counters.bump(t))));
        expect(await counters.read(topics)).toEqual({ a: 4, b: 4, c: 4 });
      });
    });
  });
}
