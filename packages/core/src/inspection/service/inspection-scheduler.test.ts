import { afterEach, describe, expect, it, vi } from "vitest";
import { RecordingLogger } from "../../identity/tokens/token-service.test-support.js";
import type { PromptInspectionSettings } from "../inspection.properties.js";
import type { InspectionRound } from "./inspection-round.js";
import { InspectionScheduler } from "./inspection-scheduler.js";

afterEach(() => {
  vi.useRealTimers();
});

const settings = { intervalMs: 30_000, initialDelayMs: 10_000 } as PromptInspectionSettings;

describe("the inspection scheduler", () => {
  it("runs the first round after the initial delay, then every interval, until stopped; a failure is logged once", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    let runs = 0;
    const round = {
      runOnce: async () => {
        runs++;
        if (runs === 2 || runs === 3) throw new Error("store down");
        return { ran: true, inspected: 0, reinspected: 0 };
      },
    } as unknown as InspectionRound;
    const logger = new RecordingLogger();
    const scheduler = new InspectionScheduler({ round, settings, logger });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(90_000);
    expect(runs).toBe(4);
    expect(logger.lines.filter((e) => e.message === "prompt inspection round failed")).toHaveLength(1);
    expect(logger.lines.filter((e) => e.message === "prompt inspection round recovered")).toHaveLength(1);
    await scheduler.stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(runs).toBe(4);
  });
});
