import { describe, expect, it } from "vitest";
import { parseByteSize, parseDuration } from "./duration.js";

describe("parseDuration", () => {
  it.each([
    ["PT30S", 30_000],
    ["pt30s", 30_000],
    ["PT1.5S", 1_500],
    ["PT15M", 900_000],
    ["PT2H", 7_200_000],
    ["P1D", 86_400_000],
    ["P1DT2H", 93_600_000],
    ["P2W", 1_209_600_000],
    ["500ms", 500],
    ["30s", 30_000],
    ["15m", 900_000],
    ["2h", 7_200_000],
    ["90d", 7_776_000_000],
    ["1w", 604_800_000],
    [" 10s ", 10_000],
    ["1000", 1_000],
    [0, 0],
    [250, 250],
  ])("%s is %d ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(["", "P", "PT", "P1M", "P1Y", "10 minutes", "-5s", "abc", "1.2.3s", "PT-1S", "5x"])(
    "refuses %j",
    (text) => {
      expect(parseDuration(text)).toBeUndefined();
    },
  );

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])("refuses the number %d", (n) => {
    expect(parseDuration(n)).toBeUndefined();
  });
});

describe("parseByteSize", () => {
  it.each([
    ["1024", 1024],
    ["64kb", 64_000],
    ["64KiB", 65_536],
    ["1mb", 1_000_000],
    ["1MiB", 1_048_576],
    [512, 512],
  ])("%s is %d bytes", (text, n) => {
    expect(parseByteSize(text)).toBe(n);
  });

  it.each(["", "1gb", "-1", "1.5mb", "lots", 1.5, -3])("refuses %j", (text) => {
    expect(parseByteSize(text)).toBeUndefined();
  });
});
