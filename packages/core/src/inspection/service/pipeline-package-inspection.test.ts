import { describe, expect, it } from "vitest";
import { pipelineFixture } from "../../decisions/pipeline/decision-pipeline.fixture.js";
import { loadBundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import { InMemoryInspectionResultStore } from "../results/in-memory-inspection-result-store.js";
import { PromptInspection } from "./prompt-inspection.js";

describe("a package the decision pipeline sealed, inspected", () => {
  it("a v20 decision's package carries its reasons and seal: SEAL_INTEGRITY passes, REASON_MATCH checks the reasons", async () => {
    const f = await pipelineFixture({ "platform.security.tiered.prompt-bundle.active": "2026.09.15-v20" });
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
    await f.pipeline.idle();
    const [entry] = await f.evidence.store.keptPackages(Number.MAX_SAFE_INTEGER, 10);
    expect(entry?.header?.metadata.bundleVersion).toBe("2026.09.15-v20");
    expect(entry!.header!.metadata.reasons!.length).toBeGreaterThan(0);
    const inspection = new PromptInspection({
      evidence: f.evidence.sealed,
      results: new InMemoryInspectionResultStore(),
      catalog: loadBundleCatalog(),
      clock: f.clock,
    });
    const r = await inspection.inspect(entry!.packageIds[0]!);
    const status = (check: string) => r!.checks.find((c) => c.check === check)?.status;
    // The fixture's event has no correlation id and the fixture no registry: nothing else is found,
    // and the seal itself (hash, prompts, context, clear fields) holds.
    expect(r!.findings.map((x) => `${x.kind}:${x.check}:${x.reason}`)).toEqual([
      "UNVERIFIABLE:SEAL_INTEGRITY:NO_CORRELATION_ID",
      "UNVERIFIABLE:BUNDLE_TRACE:NO_REGISTRY",
    ]);
    expect(r!.checks.find((c) => c.check === "REASON_MATCH")).toMatchObject({ status: "PASS" });
    expect(r!.checks.find((c) => c.check === "REASON_MATCH")!.items).toBeGreaterThan(0);
    expect(status("DICTIONARY_CONTRACT")).toBe("PASS");
  });
});
