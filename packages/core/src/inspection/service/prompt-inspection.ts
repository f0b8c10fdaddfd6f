import type { InjectionToken } from "tsyringe";
import type { SealedEvidence } from "../../decisions/evidence/sealed-evidence-service.js";
import type { ReleaseRegistry, ReleaseRow } from "../../governance/registry/release-registry.js";
import type { Clock } from "../../kernel/clock.js";
import type { BundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import type { TraceTarget } from "../checks/bundle-trace.js";
import { verifySealedPackage } from "../checks/sealed-package-verifier.js";
import { inspectPackage } from "../inspect-package.js";
import type { InspectionResult } from "../inspection-result.js";
import type { PromptFactSourceVerifier } from "../prompt-fact-source-verifier.js";
import type { InspectionResultStore } from "../results/inspection-result-store.js";
import { inspectedPackageOf, inspectedReleaseOf, unreadableResult } from "./stored-package.js";

/** What the inspection service reads and writes. */
export interface PromptInspectionOptions {
  readonly evidence: SealedEvidence;
  readonly results: InspectionResultStore;
  readonly catalog: BundleCatalog;
  /** The release registry; absent: BUNDLE_TRACE is unverifiable (NO_REGISTRY). */
  readonly registry?: ReleaseRegistry | undefined;
  /** The host's fact source; absent: SOURCE_TRUTH is NOT_INTEGRATED. */
  readonly verifier?: PromptFactSourceVerifier | undefined;
  readonly clock: Clock;
}

/** A synchronous row lookup over one read of every scope's head (the round reads the registry once). */
export type ReleaseRowLookup = (target: TraceTarget) => ReleaseRow | undefined;

/**
 * Inspects stored packages: opens the kept package (a system read), checks its seal with
 * `verifyPackageSeal`, holds it to the build's catalog, traces it to its registry row and the host's
 * fact source, and saves the result under the current inspector version (replacing one of the same
 * version: a re-inspection). A package whose payload was erased or cannot be opened is saved as
 * ERROR (PAYLOAD_ERASED, PAYLOAD_UNREADABLE): it keeps the full retention period.
 */
export class PromptInspection {
  constructor(private readonly o: PromptInspectionOptions) {}

  /** Inspects the kept package `packageId` and saves the result; undefined when no such package is kept. */
  async inspect(packageId: string, rows?: ReleaseRowLookup): Promise<InspectionResult | undefined> {
    const opened = await this.o.evidence.open(packageId);
    if (opened === undefined) return undefined;
    const now = this.o.clock.now();
    const pkg = inspectedPackageOf(opened);
    let result: InspectionResult;
    if (pkg === undefined) result = unreadableResult(opened, this.o.catalog, now);
    else {
      const inspected = await inspectPackage(pkg, {
        catalog: this.o.catalog,
        verifySeal: verifySealedPackage,
        releaseRow: this.o.registry && (rows ?? (await this.releaseRows())),
        verifier: this.o.verifier,
        now,
      });
      const release = inspectedReleaseOf(opened.header);
      result = release ? { ...inspected, release } : inspected;
    }
    await this.o.results.save(result);
    return result;
  }

  /** One read of the registry as a row lookup; undefined without a registry. */
  async releaseRows(): Promise<ReleaseRowLookup | undefined> {
    if (this.o.registry === undefined) return undefined;
    const byKey = new Map<string, ReleaseRow>();
    for (const head of await this.o.registry.heads())
      for (const row of head.releases)
        byKey.set(keyOf(row.registryScope, row.promptKey, row.promptVersion), row);
    return (t) => byKey.get(keyOf(t.registryScope, t.promptKey, t.promptVersion));
  }
}

const keyOf = (scope: string, key: string, version: string) => `${scope}\u0000${key}\u0000${version}`;

/** DI token of the inspection service. */
export const PromptInspectionToken: InjectionToken<PromptInspection> =
  Symbol.for("platform.PromptInspection");
