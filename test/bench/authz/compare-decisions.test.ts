import { describe, expect, it } from "vitest";
import type { BenchDecision, BenchRequest } from "./bench-types.js";
import { compareWithReference, describeMismatch, expectedGrants } from "./compare-decisions.js";
import type { PdpUnderTest } from "./pdp-under-test.js";
import { ReferencePdp } from "./reference-pdp.js";
import { buildOptions, generateWorkload } from "./workload.js";

describe("expectedGrants", () => {
  // grants by index: 1 0 1 1 0 → prefix 0 1 1 2 3 3
  const prefix = Uint32Array.from([0, 1, 1, 2, 3, 3]);

  it("sums a window inside the stream", () => {
    expect(expectedGrants(prefix, 0, 5)).toBe(3);
    expect(expectedGrants(prefix, 1, 2)).toBe(1);
    expect(expectedGrants(prefix, 2, 0)).toBe(0);
  });

  it("wraps around, for any number of whole cycles", () => {
    expect(expectedGrants(prefix, 4, 2)).toBe(1);
    expect(expectedGrants(prefix, 3, 4)).toBe(2);
    expect(expectedGrants(prefix, 2, 12)).toBe(3 + 3 + 2);
    expect(expectedGrants(prefix, 7, 1)).toBe(1);
  });
});

describe("compareWithReference", () => {
  const workload = generateWorkload({ policyCount: 200, requestCount: 1_000, seed: 7 });

  async function referenceFor(): Promise<ReferencePdp> {
    const ref = new ReferencePdp();
    await ref.build(workload.policies, buildOptions(workload, "FIRST_APPLICABLE"));
    return ref;
  }

  it("finds nothing when the PDP is the reference", async () => {
    const result = await compareWithReference(await referenceFor(), await referenceFor(), workload.requests);
    expect(result.compared).toBe(1_000);
    expect(result.mismatches).toBe(0);
    expect(result.grantedPrefix[1_000]).toBeGreaterThan(0);
  });

  it("catches a wrong grant, a wrong policyId and a throw, and describes them", async () => {
    const ref = await referenceFor();
    let calls = 0;
    const broken: PdpUnderTest = {
      name: "broken",
      build: async () => ({ buildMs: 0 }),
      async decide(request: BenchRequest): Promise<BenchDecision> {
        const d = ref.decideSync(request);
        calls++;
        if (calls === 10) return { ...d, granted: !d.granted };
        if (calls === 20) return { granted: d.granted, policyId: "p-nope" };
        if (calls === 30) throw new Error("boom");
        return d;
      },
    };
    const result = await compareWithReference(broken, ref, workload.requests);
    expect(result.mismatches).toBe(3);
    expect(result.samples.map((m) => m.index)).toEqual([9, 19, 29]);
    expect(describeMismatch(result.samples[2] ?? expect.fail())).toContain("threw Error: boom");
  });
});
