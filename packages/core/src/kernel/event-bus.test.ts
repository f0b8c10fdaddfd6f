import { describe, expect, it } from "vitest";
import { InProcessEventBus } from "./event-bus.js";

describe("InProcessEventBus", () => {
  it("delivers to listeners of the type and to wildcard listeners", async () => {
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    bus.on<number>("a", (e) => {
      seen.push(`a:${e.payload}`);
    });
    bus.on("*", (e) => {
      seen.push(`*:${e.type}`);
    });
    await bus.publish("a", 1);
    await bus.publish("b", 2);
    expect(seen).toEqual(["a:1", "*:a", "*:b"]);
  });

  it("isolates failing listeners and reports them", async () => {
    const errors: unknown[] = [];
    const bus = new InProcessEventBus((e) => errors.push(e));
    let delivered = 0;
    bus.on("x", () => {
      throw new Error("sync failure");
    });
    bus.on("x", async () => {
      throw new Error("async failure");
    });
    bus.on("x", () => {
      delivered++;
    });
    await expect(bus.publish("x", {})).resolves.toBeUndefined();
    expect(delivered).toBe(1);
    expect(errors).toHaveLength(2);
  });

  it("unsubscribes", async () => {
    const bus = new InProcessEventBus();
    let n = 0;
    const off = bus.on("x", () => {
      n++;
    });
    await bus.publish("x", null);
    off();
    await bus.publish("x", null);
    expect(n).toBe(1);
  });
});
