import { describe, expect, it } from "vitest";
import {
  MAX_COMPARISON_FAMILIES,
  MAX_DRIFT_CODES,
  OTHER_FAMILY,
  OTHER_REASON,
  shadowComparisonSchema,
} from "../evidence/shadow-comparison-content.js";
import { comparisonContent, ShadowComparisonBatches } from "./shadow-comparison-batches.js";
import { resourceFamilyOfEvent, type ShadowRunComparison } from "./shadow-run-comparison.js";

const HASH = "a".repeat(64);
const BUNDLE = { promptKey: "cortex.security-decision", promptVersion: "2026.09.15-v20", bundleHash: HASH };
const run = (over: Partial<ShadowRunComparison> = {}): ShadowRunComparison => ({
  family: "orders",
  enforcedAction: "CHALLENGE",
  shadowAction: "CHALLENGE",
  shadowFellBack: false,
  added: [],
  dropped: [],
  enforcedVersion: "2026.07.30-v19",
  enforcedHash: HASH,
  at: 1_000,
  ...over,
});

describe("ShadowComparisonBatches", () => {
  it("hands back disjoint batches of batchSize runs per bundle, and the partial ones when drained", () => {
    const batches = new ShadowComparisonBatches({ batchSize: 2, maxPending: 10 });
    const other = { ...BUNDLE, promptVersion: "other" };
    expect(batches.add(BUNDLE, run())).toBeUndefined();
    expect(batches.add(other, run())).toBeUndefined();
    expect(batches.add(BUNDLE, run({ at: 2_000 }))?.runs.map((r) => r.at)).toEqual([1_000, 2_000]);
    expect(batches.add(BUNDLE, run({ at: 3_000 }))).toBeUndefined();
    expect(
      batches
        .drain()
        .map((b) => [b.bundle.promptVersion, b.runs.length])
        .sort(),
    ).toEqual([
      [BUNDLE.promptVersion, 1],
      ["other", 1],
    ]);
    expect(batches.counts()).toEqual({ pending: 0, dropped: 0 });
  });

  it("keeps a restored batch for the next one, dropping the oldest past maxPending (counted)", () => {
    const batches = new ShadowComparisonBatches({ batchSize: 3, maxPending: 3 });
    batches.restore({ bundle: BUNDLE, runs: [run({ at: 1 }), run({ at: 2 })] });
    const full = batches.add(BUNDLE, run({ at: 3 }));
    expect(full?.runs.map((r) => r.at)).toEqual([1, 2, 3]);
    batches.restore(full!);
    batches.restore({ bundle: BUNDLE, runs: [run({ at: 4 })] });
    expect(batches.counts()).toEqual({ pending: 3, dropped: 1 });
  });
});

describe("comparisonContent", () => {
  it("counts agreement, action pairs, enforced bundles and reason drift per family, within its schema", () => {
    const content = comparisonContent("instance-a", [
      run(),
      run({ shadowAction: "BLOCK", added: ["NEW_DEVICE"], dropped: ["NEW_ACCOUNT"], at: 5_000 }),
      run({ family: "event:SIGN_IN_COMPLETED", added: ["NEW_DEVICE"], at: 3_000 }),
    ]);
    expect(shadowComparisonSchema.parse(content)).toEqual(content);
    expect(content).toMatchObject({ runs: 3, agreed: 2, firstRunAt: 1_000, lastRunAt: 5_000 });
    expect(content.actions).toEqual([
      { enforced: "CHALLENGE", shadow: "CHALLENGE", runs: 2 },
      { enforced: "CHALLENGE", shadow: "BLOCK", runs: 1 },
    ]);
    expect(content.families).toEqual([
      {
        family: "orders",
        runs: 2,
        agreed: 1,
        reasonDrift: 1,
        added: [{ code: "NEW_DEVICE", runs: 1 }],
        dropped: [{ code: "NEW_ACCOUNT", runs: 1 }],
      },
      {
        family: "event:SIGN_IN_COMPLETED",
        runs: 1,
        agreed: 1,
        reasonDrift: 1,
        added: [{ code: "NEW_DEVICE", runs: 1 }],
        dropped: [],
      },
    ]);
  });

  it("folds families and codes past their limits so any batch fits its schema", () => {
    const runs = Array.from({ length: 200 }, (_, i) =>
      run({ family: `family-${i % 100}`, added: [`CODE_${i % 50}`], enforcedVersion: `v${i % 12}` }),
    );
    const content = comparisonContent("instance-a", runs);
    expect(shadowComparisonSchema.safeParse(content).success).toBe(true);
    expect(content.families).toHaveLength(MAX_COMPARISON_FAMILIES + 1);
    expect(content.families.at(-1)?.family).toBe(OTHER_FAMILY);
    const other = content.families.at(-1)!;
    expect(other.added.length).toBeLessThanOrEqual(MAX_DRIFT_CODES + 1);
    expect(other.added.at(-1)?.code).toBe(OTHER_REASON);
    expect(content.enforced.reduce((n, e) => n + e.runs, 0)).toBe(200);
  });

  it("the schema refuses a record that does not add up, or hostile names", () => {
    const good = comparisonContent("instance-a", [run(), run({ shadowAction: "ALLOW" })]);
    for (const bad of [
      { ...good, agreed: 2 },
      { ...good, runs: 3 },
      { ...good, instanceId: "a\u202Eb" },
      { ...good, extra: true },
      { ...good, families: [{ ...good.families[0]!, family: "x".repeat(129) }] },
      { ...good, families: [{ ...good.families[0]!, agreed: 5 }] },
    ])
      expect(shadowComparisonSchema.safeParse(bad).success).toBe(false);
  });
});

describe("resourceFamilyOfEvent", () => {
  it("takes the family function's answer, cleaned, else the event kind", () => {
    const event = { kind: "SIGN_IN_COMPLETED" as const, method: "GET", target: "/api/orders/1" };
    expect(resourceFamilyOfEvent(() => "orders", event)).toBe("orders");
    expect(resourceFamilyOfEvent(() => " ord\u200Bers\u0000 ", event)).toBe("orders");
    expect(resourceFamilyOfEvent(() => undefined, event)).toBe("event:SIGN_IN_COMPLETED");
    expect(resourceFamilyOfEvent(undefined, event)).toBe("event:SIGN_IN_COMPLETED");
    expect(
      resourceFamilyOfEvent(() => {
        throw new Error("boom");
      }, event),
    ).toBe("event:SIGN_IN_COMPLETED");
    expect(resourceFamilyOfEvent(() => "😀".repeat(100), event)).toHaveLength(128);
  });
});
