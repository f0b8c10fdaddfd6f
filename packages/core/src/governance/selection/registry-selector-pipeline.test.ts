import { describe, expect, it } from "vitest";
import { pipelineFixture } from "../../decisions/pipeline/decision-pipeline.fixture.js";
import { KEY, V19, V20 } from "../governance.fixture.js";
import { PLATFORM_GLOBAL_SCOPE as GLOBAL } from "../registry/release-registry.js";
import { RegistryBundleSelector } from "./registry-bundle-selector.js";
import { platformGlobalScopeResolver } from "./request-scope-resolver.js";
import { rowOf, selectorHarness } from "./selection.fixture.js";

describe("the registry selector in the real decision pipeline", () => {
  it("runs the registry's release and records source, release and stage ENFORCE in the evidence", async () => {
    const h = selectorHarness();
    const approval = { by: "alice", at: 5, rationale: "r" };
    await h.put(GLOBAL, [
      rowOf(h.catalog, GLOBAL, V19, "ACTIVE", { approval }),
      rowOf(h.catalog, GLOBAL, V20, "CANARY", { canaryTenants: ["acme"], approval }),
    ]);
    await h.cache.refresh();
    const f = await pipelineFixture(
      {},
      undefined,
      ({ audit, logger }) =>
        new RegistryBundleSelector({
          catalog: h.catalog,
          snapshots: h.cache,
          resolver: {
            resolve: (e) => ({
              registryScope: GLOBAL,
              tenant: e.detail?.tenant === "acme" ? "acme" : undefined,
            }),
          },
          familyOf: () => undefined,
          audit,
          logger,
        }),
    );
    f.pipeline.submit(f.event("REPEATED_DENIALS", { detail: { denials: 5 } }));
    f.pipeline.submit(f.event("REPEATED_DENIALS", { detail: { denials: 5, tenant: "acme" } }));
    await f.pipeline.idle();
    const packages = await f.evidence.recent(10);
    const metadata = packages
      .map((p) => p.metadata)
      .sort((a, b) => a.bundleVersion.localeCompare(b.bundleVersion));
    expect(metadata).toMatchObject([
      {
        bundleVersion: V19,
        bundleHash: h.catalog.find(V19)!.manifest.bundleHash,
        selectionSource: "REGISTRY",
        stage: "ENFORCE",
        release: {
          registryScope: GLOBAL,
          promptKey: KEY,
          promptVersion: V19,
          status: "ACTIVE",
          approvedBy: "alice",
        },
      },
      {
        bundleVersion: V20,
        bundleHash: h.catalog.find(V20)!.manifest.bundleHash,
        selectionSource: "CANARY",
        stage: "ENFORCE",
        release: { promptVersion: V20, status: "CANARY", approvedAt: 5 },
      },
    ]);
    // The model was asked with the selected bundles.
    expect(f.maker.requests.map((r) => r.selection.version).sort()).toEqual([V19, V20]);
  });

  it("runs the build default, recorded, before the cache's first read", async () => {
    const h = selectorHarness();
    const f = await pipelineFixture(
      {},
      undefined,
      ({ audit, logger }) =>
        new RegistryBundleSelector({
          catalog: h.catalog,
          snapshots: h.cache,
          resolver: platformGlobalScopeResolver,
          familyOf: () => undefined,
          audit,
          logger,
        }),
    );
    f.pipeline.submit(f.event("REPEATED_DENIALS", { detail: { denials: 5 } }));
    await f.pipeline.idle();
    const [pkg] = await f.evidence.recent(1);
    expect(pkg?.metadata).toMatchObject({
      bundleVersion: V19,
      selectionSource: "BUILD_DEFAULT",
      stage: "ENFORCE",
    });
    expect(pkg?.metadata.release).toBeUndefined();
    expect(f.auditOf("decision.bundle.fallback").map((e) => e.data)).toEqual([
      { why: "registry-not-read", ran: V19 },
    ]);
  });
});
