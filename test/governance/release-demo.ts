import type { PlatformPlugin } from "@keyward/core";
import { AuditSink, Clock } from "@keyward/core/ports";
import { BundleCatalog } from "../../packages/core/src/prompts/bundle-catalog-token.js";
import { EVALUATION_PROPERTIES } from "../../packages/core/src/governance/evaluation/evaluation.properties.js";
import {
  evaluationThresholdsOf,
  LedgerEvidenceGate,
} from "../../packages/core/src/governance/evidence/evidence-gate-service.js";
import { LedgerEvidenceIntake } from "../../packages/core/src/governance/evidence/evidence-intake-service.js";
import { ReleaseEvidenceLedger } from "../../packages/core/src/governance/evidence/release-evidence-ledger.js";
import { promptGovernancePlugin } from "../../packages/core/src/governance/governance-plugin.js";
import { ReleaseRegistry } from "../../packages/core/src/governance/registry/release-registry.js";
import type { ReleaseState } from "../../packages/core/src/governance/registry/release-state.js";
import { EvidenceGate, EvidenceIntake } from "../../packages/core/src/governance/release-governance.js";
import { NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

/** The demo's bundles (prompt-bundles/manifests/cortex.security-decision). */
export const PROMPT_KEY = "cortex.security-decision";
export const V18 = "2026.05.12-v18";
export const V19 = "2026.07.30-v19";
export const V20 = "2026.09.15-v20";

/**
 * The real evidence gate and intake over the plugin's ledger, as defaults: what the release API's
 * tests need until promptGovernancePlugin registers them itself (then these defaults change nothing).
 */
const evidenceServices: PlatformPlugin = {
  id: "test-release-evidence-services",
  properties: EVALUATION_PROPERTIES,
  register(ctx) {
    ctx.registerDefault(EvidenceGate, {
      useFactory: (c) =>
        new LedgerEvidenceGate({
          ledger: c.resolve(ReleaseEvidenceLedger),
          catalog: c.resolve(BundleCatalog),
          thresholds: evaluationThresholdsOf(ctx.properties),
        }),
    });
    ctx.registerDefault(EvidenceIntake, {
      useFactory: (c) =>
        new LedgerEvidenceIntake({
          ledger: c.resolve(ReleaseEvidenceLedger),
          catalog: c.resolve(BundleCatalog),
          audit: c.resolve(AuditSink),
          clock: c.resolve(Clock),
        }),
    });
  },
};

/** The demo with prompt governance (registry, gate, release API and page), admins signing in without a mailed code. */
export function startReleaseDemo(): Promise<RunningDemo> {
  return startDemo({}, NO_MFA_FOR_ADMINS, { plugins: [evidenceServices, promptGovernancePlugin] });
}

/**
 * Puts a release of PLATFORM_GLOBAL in `status` straight through the registry port (its in-memory
 * adapter), as an operator's earlier evidence-backed transitions would have: the tests of the API
 * start from an executing v20 without recording a whole evaluation first.
 */
export async function putRelease(demo: RunningDemo, version: string, status: ReleaseState): Promise<void> {
  const registry = demo.platform.resolve(ReleaseRegistry);
  const head = await registry.head("PLATFORM_GLOBAL");
  const releases = head.releases.map((r) => (r.promptVersion === version ? { ...r, status } : r));
  const written = await registry.replaceHead("PLATFORM_GLOBAL", head.revision, {
    releases,
    openExecutions: head.openExecutions,
  });
  if (!written) throw new Error("the registry changed meanwhile");
}
