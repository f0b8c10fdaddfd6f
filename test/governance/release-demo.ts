import { ReleaseRegistry } from "@keyward/core/ports";
import type { ReleaseState } from "../../packages/core/src/governance/registry/release-state.js";
import { NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

/** The demo's bundles (prompt-bundles/manifests/cortex.security-decision). */
export const PROMPT_KEY = "cortex.security-decision";
export const V18 = "2026.05.12-v18";
export const V19 = "2026.07.30-v19";
export const V20 = "2026.09.15-v20";

/** The demo (prompt governance on: registry, gate, release API and page), admins signing in without a mailed code. */
export function startReleaseDemo(): Promise<RunningDemo> {
  return startDemo({}, NO_MFA_FOR_ADMINS);
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
