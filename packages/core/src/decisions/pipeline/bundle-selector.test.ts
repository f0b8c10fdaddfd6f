import { describe, expect, it } from "vitest";
import { pipelineFixture } from "./decision-pipeline.fixture.js";

describe("ConfigurationBundleSelector", () => {
  it("runs the build default when the property is blank", async () => {
    const { selector } = await pipelineFixture();
    expect(selector.select({ id: "e1" })).toMatchObject({
      version: "2026.07.30-v19",
      source: "BUILD_DEFAULT",
    });
    expect(selector.select({ id: "e1" }).requested).toBeUndefined();
  });

  it("runs the configured version when this build runs it, with its manifest's hash", async () => {
    const { selector } = await pipelineFixture({
      "platform.security.tiered.prompt-bundle.active": "2026.09.15-v20",
    });
    const s = selector.select({ id: "e1" });
    expect(s).toMatchObject({ version: "2026.09.15-v20", source: "CONFIGURATION" });
    expect(s.bundleHash).toMatch(/^[0-9a-f]{64}$|^sha256:/);
    expect(s.bundle.descriptor.promptVersion).toBe("2026.09.15-v20");
  });

  it("falls back to the build default for a version this build does not run, reported once per version", async () => {
    const f = await pipelineFixture({ "platform.security.tiered.prompt-bundle.active": "2099.01.01-v99" });
    const a = f.selector.select({ id: "e1" });
    const b = f.selector.select({ id: "e2" });
    expect(a).toMatchObject({
      version: "2026.07.30-v19",
      source: "BUILD_DEFAULT",
      requested: "2099.01.01-v99",
    });
    expect(b.source).toBe("BUILD_DEFAULT");
    expect(f.auditOf("decision.bundle.fallback")).toMatchObject([
      { data: { requested: "2099.01.01-v99", why: "unknown", ran: "2026.07.30-v19" } },
    ]);
    expect(f.logger.lines.filter((l) => l.level === "warn")).toHaveLength(1);
  });

  it("falls back for a record-only version too, saying why", async () => {
    const f = await pipelineFixture({ "platform.security.tiered.prompt-bundle.active": "2026.05.12-v18" });
    expect(f.selector.select({ id: "e1" })).toMatchObject({
      source: "BUILD_DEFAULT",
      requested: "2026.05.12-v18",
    });
    expect(f.auditOf("decision.bundle.fallback")).toMatchObject([{ data: { why: "record-only" } }]);
  });

  it("fixes an event's bundle at its first prompt", async () => {
    const { selector } = await pipelineFixture();
    expect(selector.select({ id: "e1" })).toBe(selector.select({ id: "e1" }));
  });

  it("is what the pipeline renders with and reports", async () => {
    const f = await pipelineFixture({ "platform.security.tiered.prompt-bundle.active": "2026.09.15-v20" });
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
    await f.pipeline.idle();
    expect(f.maker.requests[0]!.selection.source).toBe("CONFIGURATION");
    expect(f.auditOf("decision.made")[0]!.data).toMatchObject({
      bundleVersion: "2026.09.15-v20",
      selectionSource: "CONFIGURATION",
    });
  });
});
