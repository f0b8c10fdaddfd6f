import { describe, expect, it } from "vitest";
import { inShadowSample, SHADOW_SAMPLE_BUCKETS, shadowSampleBucket } from "./shadow-sample.js";

const IDS = Array.from({ length: 100_000 }, (_, i) => `evt-${i.toString(36)}-${(i * 7919) % 100_003}`);
const buckets = IDS.map(shadowSampleBucket);

describe("shadow sampling by event ID", () => {
  it.each([1, 10, 50])(
    "puts %i percent of 100,000 synthetic event IDs in the sample, within ±0.5 points",
    (percent) => {
      // The bucket rule inShadowSample applies (checked ID by ID below), over the precomputed buckets.
      const share = (buckets.filter((b) => b < percent * 10_000).length / IDS.length) * 100;
      expect(Math.abs(share - percent)).toBeLessThanOrEqual(0.5);
    },
  );

  it("is stable: the same ID gets the same bucket, and a larger share keeps everyone a smaller one had", () => {
    expect(IDS.slice(0, 1000).map(shadowSampleBucket)).toEqual(buckets.slice(0, 1000));
    for (const [i, id] of IDS.slice(0, 5_000).entries()) {
      if (inShadowSample(id, 1)) expect(inShadowSample(id, 10)).toBe(true);
      expect(inShadowSample(id, 10)).toBe(buckets[i]! < 100_000);
      expect(inShadowSample(id, 50)).toBe(buckets[i]! < 500_000);
    }
  });

  it("samples none at 0 and every ID at 100; any string hashes into range", () => {
    expect(IDS.slice(0, 1000).some((id) => inShadowSample(id, 0))).toBe(false);
    expect(IDS.slice(0, 1000).every((id) => inShadowSample(id, 100))).toBe(true);
    for (const hostile of ["", "\u0000", "\ud800", "x".repeat(100_000), "evt-1\n"]) {
      const b = shadowSampleBucket(hostile);
      expect(Number.isInteger(b) && b >= 0 && b < SHADOW_SAMPLE_BUCKETS).toBe(true);
    }
  });
});
