import { describe, expect, it } from "vitest";
import { AttemptSerializer } from "./attempt-serializer.js";

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("AttemptSerializer", () => {
  it("runs tasks of one key one at a time, in order, and tasks of other keys alongside", async () => {
    const serializer = new AttemptSerializer(10);
    const log: string[] = [];
    const first = deferred();
    const a1 = serializer.run("a", async () => {
      log.push("a1 start");
      await first.promise;
      log.push("a1 end");
      return 1;
    });
    const a2 = serializer.run("a", async () => {
      log.push("a2 start");
      return 2;
    });
    const b1 = serializer.run("b", async () => {
      log.push("b1 start");
      return 3;
    });
    expect(await b1).toBe(3);
    expect(log).toEqual(["a1 start", "b1 start"]);
    first.resolve();
    expect(await Promise.all([a1, a2])).toEqual([1, 2]);
    expect(log).toEqual(["a1 start", "b1 start", "a1 end", "a2 start"]);
  });

  it("continues after a task that rejects, and hands the rejection to its caller only", async () => {
    const serializer = new AttemptSerializer(10);
    const failing = serializer.run("a", async () => {
      throw new Error("boom");
    });
    const next = serializer.run("a", async () => "ok");
    await expect(failing).rejects.toThrow("boom");
    expect(await next).toBe("ok");
  });

  it("refuses a task when the key already has maxPendingPerKey tasks, and frees idle keys", async () => {
    const serializer = new AttemptSerializer(2);
    const gate = deferred();
    const one = serializer.run("a", () => gate.promise);
    const two = serializer.run("a", async () => undefined);
    expect(serializer.run("a", async () => undefined)).toBeUndefined();
    expect(serializer.pending("a")).toBe(2);
    gate.resolve();
    await Promise.all([one, two]);
    await Promise.resolve();
    expect(serializer.pending("a")).toBe(0);
    expect(await serializer.run("a", async () => "again")).toBe("again");
  });

  it("refuses a bound below 1", () => {
    expect(() => new AttemptSerializer(0)).toThrow(RangeError);
  });
});
