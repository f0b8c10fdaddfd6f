import { describe, expect, it } from "vitest";
import { localTime } from "./local-time.js";

describe("localTime", () => {
  it("gives the wall-clock fields in a zone", () => {
    const now = Date.parse("2026-03-04T23:30:15Z");
    expect(localTime(now, "UTC")).toEqual({
      epochMinute: Math.floor(now / 60_000),
      minuteOfDay: 23 * 60 + 30,
      dayOfWeek: 3,
      date: 20260304,
    });
    expect(localTime(now, "Asia/Tokyo")).toMatchObject({
      minuteOfDay: 8 * 60 + 30,
      dayOfWeek: 4,
      date: 20260305,
    });
    expect(localTime(now, "America/Los_Angeles")).toMatchObject({ minuteOfDay: 15 * 60 + 30, dayOfWeek: 3 });
    expect(localTime(now, "Asia/Kathmandu")).toMatchObject({ minuteOfDay: 5 * 60 + 15, date: 20260305 });
  });

  it("gives midnight as 0, not 24:00", () => {
    expect(localTime(Date.parse("2026-03-08T00:00:00Z"), "UTC")).toMatchObject({
      minuteOfDay: 0,
      dayOfWeek: 7,
    });
  });

  it("reuses the result within one minute and recomputes in the next", () => {
    const start = Date.parse("2026-06-01T12:00:00Z");
    const first = localTime(start, "Europe/Berlin");
    expect(localTime(start + 59_999, "Europe/Berlin")).toBe(first);
    const next = localTime(start + 60_000, "Europe/Berlin");
    expect(next).not.toBe(first);
    expect(next.minuteOfDay).toBe(first.minuteOfDay + 1);
    expect(localTime(start, "Europe/Berlin").minuteOfDay).toBe(14 * 60);
  });

  it("throws a RangeError for an unknown zone", () => {
    expect(() => localTime(0, "Mars/Olympus_Mons")).toThrow(RangeError);
  });
});
