import { describe, expect, it } from "vitest";
import { withMinimumDuration } from "./min-delay.js";

// Behaviour, not speed: a padded rejection must not come back before the minimum. 30 ms keeps the
// suite fast; 25 ms leaves room for timer granularity.
const MIN_MS = 30;

describe("withMinimumDuration", () => {
  it("pads a fast rejection to the minimum and rethrows the same error", async () => {
    const error = new Error("wrong code");
    const start = performance.now();
    await expect(
      withMinimumDuration(MIN_MS, async () => {
        throw error;
      }),
    ).rejects.toBe(error);
    expect(performance.now() - start).toBeGreaterThanOrEqual(25);
  });

  it("treats a synchronous throw as a rejection", async () => {
    const start = performance.now();
    await expect(
      withMinimumDuration(MIN_MS, () => {
        throw new TypeError("sync");
      }),
    ).rejects.toThrow(TypeError);
    expect(performance.now() - start).toBeGreaterThanOrEqual(25);
  });

  it("returns a success as is, without padding unless asked", async () => {
    let start = performance.now();
    await expect(withMinimumDuration(1_000, async () => 42)).resolves.toBe(42);
    expect(performance.now() - start).toBeLessThan(500);
    start = performance.now();
    await expect(withMinimumDuration(MIN_MS, async () => "ok", { padSuccess: true })).resolves.toBe("ok");
    expect(performance.now() - start).toBeGreaterThanOrEqual(25);
  });

  it("adds nothing when the task already took longer", async () => {
    const start = performance.now();
    await expect(
      withMinimumDuration(5, async () => {
        await new Promise((resolve) => setTimeout(resolve, 40));
        throw new Error("slow");
      }),
    ).rejects.toThrow("slow");
    expect(performance.now() - start).toBeLessThan(500);
  });

  it("does not wait for a zero or negative minimum", async () => {
    await expect(
      withMinimumDuration(0, async () => {
        throw new Error("x");
      }),
    ).rejects.toThrow("x");
    await expect(
      withMinimumDuration(-10, async () => {
        throw new Error("y");
      }),
    ).rejects.toThrow("y");
  });
});
