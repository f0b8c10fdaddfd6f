import type { EvidencePackage, SentPrompt } from "../../decisions/evidence/evidence-package.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { BundleDefinition } from "../../prompts/bundles/bundle-definition.js";
import type { CatalogEntry } from "../../prompts/manifest/bundle-catalog.js";
import type { BundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import type { CheckFindings } from "../check-findings.js";
import { decisionFactMatch } from "../checks/decision-fact-match.js";
import { dictionaryContract } from "../checks/dictionary-contract.js";
import { factAccuracy } from "../checks/fact-accuracy.js";
import { pastRecordNotation } from "../checks/past-record-notation.js";
import { sameFact } from "../checks/same-fact.js";
import { unknownDeclared } from "../checks/unknown-declared.js";
import type { InspectedPackage } from "../inspected-package.js";
import { type InspectionContext, inspectionContextOf } from "../inspection-context.js";
import {
  type CheckCode,
  type CheckOutcome,
  type InspectionFinding,
  type InspectionVerdict,
  verdictOf,
} from "../inspection-result.js";

/**
 * The checks a rehearsal runs on a candidate's render: those that hold a prompt to its context and
 * to the dictionary. Left out: SEAL_INTEGRITY (nothing was sealed), BUNDLE_TRACE (the candidate ran
 * as no release), SOURCE_TRUTH (it checks the context against the host, and the context is the
 * sealed one whatever the bundle) and REASON_MATCH (it needs the model's answer; no model is called).
 */
export const REHEARSAL_CHECKS = [
  "DICTIONARY_CONTRACT",
  "DECISION_FACT_MATCH",
  "FACT_ACCURACY",
  "UNKNOWN_DECLARED",
  "PAST_RECORD_NOTATION",
  "SAME_FACT",
] as const satisfies readonly CheckCode[];

/** The candidate bundle a rehearsal renders with, and the catalog that holds it. */
export interface RehearsalCandidate {
  readonly catalog: BundleCatalog;
  /** The candidate's catalog entry; its bundle must be one this build runs. */
  readonly entry: CatalogEntry & { readonly bundle: BundleDefinition };
}

/** One render of the candidate: its layer, user prompt and what its budget did. */
export interface RehearsedRender {
  readonly layer: "L1" | "L2";
  readonly user: string;
  readonly overBudget: boolean;
  readonly omitted: readonly string[];
}

/** One sealed context rehearsed: the checks' outcomes and findings on the candidate's renders. */
export interface RehearsedPackage {
  readonly packageId: string;
  readonly verdict: InspectionVerdict;
  readonly checks: readonly CheckOutcome[];
  readonly findings: readonly InspectionFinding[];
  readonly renders: readonly RehearsedRender[];
  /** ERROR only: why the candidate could not render the context. */
  readonly error?: { readonly code: string; readonly detail: string };
}

/** The layers the package's decision ran, in the order sent (each once). */
function layersOf(pkg: EvidencePackage): ("L1" | "L2")[] {
  const layers = pkg.prompts.map((p) => p.layer);
  return layers.filter((l, i) => layers.indexOf(l) === i);
}

function renderAll(pkg: EvidencePackage, bundle: BundleDefinition) {
  return layersOf(pkg).map((layer) => {
    const profile = bundle.budgets.find((p) => p.family === layer);
    if (profile === undefined)
      throw new RehearsalRenderError("NO_BUDGET_PROFILE", `the candidate has no ${layer} budget profile`);
    const render = bundle.render(pkg.input, profile);
    return { layer, render };
  });
}

class RehearsalRenderError extends Error {
  constructor(
    readonly code: string,
    detail: string,
  ) {
    super(detail);
  }
}

function runChecks(ctx: InspectionContext): { checks: CheckOutcome[]; findings: InspectionFinding[] } {
  const scope = ctx.v20;
  if (!scope.run) {
    const status = scope.notApplicable ? "NOT_APPLICABLE" : "UNVERIFIABLE";
    const findings: InspectionFinding[] = scope.notApplicable
      ? []
      : REHEARSAL_CHECKS.map((check) => ({
          check,
          kind: "UNVERIFIABLE",
          reason: scope.reason,
          detail: scope.detail,
        }));
    return { checks: REHEARSAL_CHECKS.map((check) => ({ check, status, items: 0 })), findings };
  }
  const { dictionary } = scope;
  const found: CheckFindings[] = [
    dictionaryContract(ctx.prompts, dictionary),
    decisionFactMatch(ctx.prompts, dictionary),
    factAccuracy(ctx, dictionary),
    unknownDeclared(ctx, dictionary),
    pastRecordNotation(ctx, dictionary),
    sameFact(ctx.prompts, dictionary),
  ];
  return { checks: found.map((f) => f.outcome()), findings: found.flatMap((f) => f.findings) };
}

/**
 * Renders a sealed context again with a candidate bundle, one render per layer the decision ran,
 * and holds the renders to REHEARSAL_CHECKS as the inspector would hold a sealed prompt of that
 * bundle. No model is called. Never throws: a context the candidate cannot render is ERROR.
 */
export function rehearsePackage(pkg: EvidencePackage, candidate: RehearsalCandidate): RehearsedPackage {
  const { entry } = candidate;
  let renders: ReturnType<typeof renderAll>;
  try {
    renders = renderAll(pkg, entry.bundle);
  } catch (error) {
    const code =
      error instanceof RehearsalRenderError
        ? error.code
        : isPlatformError(error)
          ? error.code
          : "RENDER_FAILED";
    const detail =
      error instanceof RehearsalRenderError ? error.message : "the candidate could not render it";
    return {
      packageId: pkg.id,
      verdict: "ERROR",
      checks: [],
      findings: [],
      renders: [],
      error: { code, detail },
    };
  }
  const prompts: SentPrompt[] = renders.map(({ layer, render }) => ({
    layer,
    system: render.system,
    user: render.user,
  }));
  const { reasons: _reasons, ...metadata } = pkg.metadata as InspectedPackage["metadata"];
  const rehearsed: InspectedPackage = {
    ...pkg,
    prompts,
    metadata: {
      ...metadata,
      bundleVersion: entry.manifest.descriptor.promptVersion,
      bundleHash: entry.manifest.bundleHash,
    },
  };
  const { checks, findings } = runChecks(inspectionContextOf(rehearsed, candidate.catalog));
  return {
    packageId: pkg.id,
    verdict: verdictOf(checks),
    checks,
    findings,
    renders: renders.map(({ layer, render }) => ({
      layer,
      user: render.user,
      overBudget: render.overBudget,
      omitted: render.omitted,
    })),
  };
}
