import { SECURITY_DECISION_PROMPT_KEY } from "../../prompts/bundles/bundle-definition.js";
import { PLATFORM_GLOBAL_SCOPE, type ReleaseRow } from "../../governance/registry/release-registry.js";
import { CheckFindings } from "../check-findings.js";
import type { InspectedPackage } from "../inspected-package.js";

/** The registry row a package's trace is checked against: the release it names, else its bundle's global row. */
export interface TraceTarget {
  readonly registryScope: string;
  readonly promptKey: string;
  readonly promptVersion: string;
}

/** What BUNDLE_TRACE reads of the release registry: the row of `traceTargetOf(pkg)`, if there is one. */
export interface RegistryTrace {
  readonly row: ReleaseRow | undefined;
}

/** The row to read for a package's BUNDLE_TRACE: the release its descriptor names, else PLATFORM_GLOBAL's row of its bundle. */
export function traceTargetOf(pkg: InspectedPackage): TraceTarget {
  const r = pkg.metadata.release;
  return r
    ? { registryScope: r.registryScope, promptKey: r.promptKey, promptVersion: r.promptVersion }
    : {
        registryScope: PLATFORM_GLOBAL_SCOPE,
        promptKey: SECURITY_DECISION_PROMPT_KEY,
        promptVersion: pkg.metadata.bundleVersion,
      };
}

function checkApproval(pkg: InspectedPackage, row: ReleaseRow, out: CheckFindings): void {
  const named = pkg.metadata.release!;
  out.count();
  if (row.approval !== undefined && row.approval.at > pkg.at) {
    out.unverifiable(
      "APPROVAL_CHANGED_SINCE",
      `the release's approval changed after the decision (${new Date(row.approval.at).toISOString()}): the row no longer shows the one it ran under`,
    );
    return;
  }
  const same = named.approvedAt === row.approval?.at && named.approvedBy === row.approval?.by;
  if (!same)
    out.mismatch(
      "APPROVAL_DIFFERS",
      `the package names the approval ${named.approvedBy ?? "none"}@${named.approvedAt ?? "-"}, the release's is ${row.approval?.by ?? "none"}@${row.approval?.at ?? "-"}`,
    );
}

/**
 * BUNDLE_TRACE: the package's descriptor names a registry release (or, selected without one, its
 * bundle has PLATFORM_GLOBAL's row), and that release's version, artifact hash, contract version and
 * approval are the package's. Without a release registry every trace is UNVERIFIABLE.
 */
export function bundleTrace(pkg: InspectedPackage, registry: RegistryTrace | undefined): CheckFindings {
  const out = new CheckFindings("BUNDLE_TRACE");
  const named = pkg.metadata.release;
  const target = traceTargetOf(pkg);
  out.count();
  if (registry === undefined) {
    out.unverifiable("NO_REGISTRY", "no release registry is integrated: the trace cannot be checked");
    return out;
  }
  const { row } = registry;
  const label = `${target.promptVersion} in ${target.registryScope}`;
  if (row === undefined) {
    if (named)
      out.mismatch(
        "RELEASE_NOT_FOUND",
        `the package names the release ${label}, which the registry does not hold`,
      );
    else
      out.unverifiable(
        "RELEASE_NOT_REGISTERED",
        `selected by ${pkg.metadata.selectionSource}, and the registry holds no row ${label}`,
      );
    return out;
  }
  out.count(2);
  if (named && named.promptVersion !== pkg.metadata.bundleVersion)
    out.mismatch(
      "RELEASE_VERSION_DIFFERS",
      `the descriptor names the release ${label}, the package ran ${pkg.metadata.bundleVersion}`,
    );
  if (row.artifactHash !== pkg.metadata.bundleHash)
    out.mismatch(
      "ARTIFACT_HASH_DIFFERS",
      `the release's artifact hash is ${row.artifactHash.slice(0, 12)}, the package's bundle hash ${pkg.metadata.bundleHash.slice(0, 12)}`,
    );
  if (!named) return out;
  out.count();
  if (named.contractVersion !== row.contractVersion)
    out.mismatch(
      "CONTRACT_VERSION_DIFFERS",
      `the package names contract ${named.contractVersion}, the release's is ${row.contractVersion}`,
    );
  checkApproval(pkg, row, out);
  return out;
}
