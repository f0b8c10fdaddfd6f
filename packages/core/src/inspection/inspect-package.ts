import type { ReleaseRow } from "../governance/registry/release-registry.js";
import { isPlatformError } from "../kernel/platform-error.js";
import type { BundleCatalog } from "../prompts/manifest/bundle-catalog.js";
import type { CheckFindings } from "./check-findings.js";
import { bundleTrace, type TraceTarget, traceTargetOf } from "./checks/bundle-trace.js";
import { decisionFactMatch } from "./checks/decision-fact-match.js";
import { dictionaryContract } from "./checks/dictionary-contract.js";
import { factAccuracy } from "./checks/fact-accuracy.js";
import { pastRecordNotation } from "./checks/past-record-notation.js";
import { reasonMatch } from "./checks/reason-match.js";
import { sameFact } from "./checks/same-fact.js";
import { type SealVerifier, sealIntegrity } from "./checks/seal-integrity.js";
import { sourceTruth } from "./checks/source-truth.js";
import { unknownDeclared } from "./checks/unknown-declared.js";
import type { InspectedPackage } from "./inspected-package.js";
import { type InspectionContext, inspectionContextOf, V20_LAYOUT } from "./inspection-context.js";
import {
  type CheckOutcome,
  INSPECTOR_VERSION,
  type InspectionFinding,
  type InspectionResult,
  V20_CHECKS,
  verdictOf,
} from "./inspection-result.js";
import type { PromptFactSourceVerifier } from "./prompt-fact-source-verifier.js";

/** What the inspector reads besides the package. */
export interface InspectorOptions {
  /** The build's bundle catalog (renders the prompts again, holds the dictionary). */
  readonly catalog: BundleCatalog;
  /** Recomputes a package's seal (the sealed-evidence module's verifier); `noSealYet` before sealing exists. */
  readonly verifySeal: SealVerifier;
  /** The registry row of a trace target, from a cached read; absent: no release registry (BUNDLE_TRACE unverifiable). */
  readonly releaseRow?: ((target: TraceTarget) => ReleaseRow | undefined) | undefined;
  /** The host's fact source; absent: SOURCE_TRUTH is NOT_INTEGRATED. */
  readonly verifier?: PromptFactSourceVerifier | undefined;
  /** The inspection time (epoch milliseconds, from the Clock port). */
  readonly now: number;
}

const dictionaryVersions = new WeakMap<BundleCatalog, string>();

/** `v20@` and the first 12 hex of the dictionary digest (B2) of the v20 bundle `catalog` runs. */
export function dictionaryVersionOf(catalog: BundleCatalog): string {
  let version = dictionaryVersions.get(catalog);
  if (version === undefined) {
    const v20 = catalog.entries.find((e) => e.bundle !== undefined && e.manifest.layout === V20_LAYOUT);
    version = `v20@${v20 ? v20.manifest.elements.B2.digest.slice(0, 12) : "absent"}`;
    dictionaryVersions.set(catalog, version);
  }
  return version;
}

function v20Checks(ctx: InspectionContext): { outcomes: CheckOutcome[]; findings: CheckFindings[] } {
  const scope = ctx.v20;
  if (!scope.run) {
    const outcomes = V20_CHECKS.filter((c) => c !== "SOURCE_TRUTH").map(
      (check): CheckOutcome => ({
        check,
        status: scope.notApplicable ? "NOT_APPLICABLE" : "UNVERIFIABLE",
        items: 0,
      }),
    );
    return { outcomes, findings: [] };
  }
  const { dictionary } = scope;
  const findings = [
    dictionaryContract(ctx.prompts, dictionary),
    decisionFactMatch(ctx.prompts, dictionary),
    factAccuracy(ctx, dictionary),
    unknownDeclared(ctx, dictionary),
    pastRecordNotation(ctx, dictionary),
    sameFact(ctx.prompts, dictionary),
    reasonMatch(ctx),
  ];
  return { outcomes: findings.map((f) => f.outcome()), findings };
}

function layoutFindings(ctx: InspectionContext): InspectionFinding[] {
  const scope = ctx.v20;
  if (scope.run || scope.notApplicable) return [];
  return V20_CHECKS.map((check) => ({
    check,
    kind: "UNVERIFIABLE",
    reason: scope.reason,
    detail: scope.detail,
  }));
}

async function runChecks(pkg: InspectedPackage, options: InspectorOptions) {
  const ctx = inspectionContextOf(pkg, options.catalog);
  const seal = sealIntegrity(ctx, options.verifySeal);
  const trace = bundleTrace(pkg, options.releaseRow && { row: options.releaseRow(traceTargetOf(pkg)) });
  const v20 = v20Checks(ctx);
  let source: CheckOutcome = {
    check: "SOURCE_TRUTH",
    status: ctx.v20.run ? "PASS" : ctx.v20.notApplicable ? "NOT_APPLICABLE" : "UNVERIFIABLE",
    items: 0,
  };
  const found = [seal, trace, ...v20.findings];
  if (ctx.v20.run) {
    const truth = await sourceTruth(ctx, ctx.v20.dictionary, options.verifier);
    source = truth.outcome;
    found.push(truth.findings);
  }
  const byCode = new Map([seal.outcome(), trace.outcome(), ...v20.outcomes, source].map((o) => [o.check, o]));
  const checks = [seal.outcome().check, trace.outcome().check, ...V20_CHECKS].map((c) => byCode.get(c)!);
  const findings = [...found.flatMap((f) => f.findings), ...layoutFindings(ctx)];
  return { layout: ctx.layout, checks, findings };
}

/**
 * Inspects one evidence package: the ten checks of the spec's table, the v20 checks only on a
 * v20-dictionary-blocks package (unverifiable when it was drawn with another bundle's dictionary or
 * render). Pure but for the host verifier's call; never throws: a package that cannot be inspected
 * answers the verdict ERROR.
 */
export async function inspectPackage(
  pkg: InspectedPackage,
  options: InspectorOptions,
): Promise<InspectionResult> {
  const base = {
    packageId: typeof pkg?.id === "string" ? pkg.id : "",
    capturedAt: typeof pkg?.at === "number" ? pkg.at : 0,
    inspectedAt: options.now,
    inspectorVersion: INSPECTOR_VERSION,
    dictionaryVersion: dictionaryVersionOf(options.catalog),
  };
  try {
    const { layout, checks, findings } = await runChecks(pkg, options);
    return { ...base, ...(layout ? { layout } : {}), verdict: verdictOf(checks), checks, findings };
  } catch (error) {
    const code = isPlatformError(error) ? error.code : "PACKAGE_UNREADABLE";
    const detail = isPlatformError(error)
      ? error.message
      : "the package's fields are not an evidence package's";
    return { ...base, verdict: "ERROR", checks: [], findings: [], error: { code, detail } };
  }
}
