import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analysePrompt } from "../../decisions/analyst/offline-analyst.js";
import { reasonsOf } from "../../decisions/inspector/response-inspector.js";
import { redactForExternalModel } from "../../decisions/pipeline/prompt-redaction.js";
import { PLATFORM_GLOBAL_SCOPE, type ReleaseRow } from "../../governance/registry/release-registry.js";
import { SECURITY_DECISION_PROMPT_KEY } from "../../prompts/bundles/bundle-definition.js";
import { parsePromptInput } from "../../prompts/input/prompt-input.js";
import type { BundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import type { TraceTarget } from "../checks/bundle-trace.js";
import type { InspectedPackage } from "../inspected-package.js";

/** The two versions this build runs. */
export const V19 = "2026.07.30-v19";
export const V20 = "2026.09.15-v20";
const APPROVED = { by: "alice-admin", at: 1_700_000_000_000 };
const CAPTURED_AT = 1_760_000_000_000;

/** How a clean package is made: a golden input, rendered by a real bundle, decided by the offline analyst. */
export interface CleanPackageOptions {
  readonly golden: string;
  readonly version?: string;
  /** The layers that ran; the last one decides (default L1 only). */
  readonly layers?: readonly ("L1" | "L2")[];
  /** Mask the context for an external model first (every mask on). */
  readonly redact?: boolean;
  readonly id?: string;
}

/** A golden input (`prompt-bundles/golden/inputs/<name>.json`) of `catalog`'s root. */
export function goldenInput(catalog: BundleCatalog, name: string) {
  return parsePromptInput(
    JSON.parse(readFileSync(join(catalog.root, "golden", "inputs", `${name}.json`), "utf8")),
  );
}

/**
 * A clean evidence package, as the pipeline captures one: the golden context (masked when asked),
 * each layer's prompts rendered by the real bundle, the deciding layer's answer by the offline
 * analyst (its reasons sealed), the bundle traced to its PLATFORM_GLOBAL release.
 */
export function cleanPackage(catalog: BundleCatalog, options: CleanPackageOptions): InspectedPackage {
  const version = options.version ?? V20;
  const entry = catalog.find(version)!;
  const bundle = catalog.runnable(version);
  const golden = goldenInput(catalog, options.golden);
  const masked = options.redact
    ? redactForExternalModel(golden, { allowEmail: false, allowAddress: false, allowFreeText: false })
    : { input: golden, redacted: [] };
  const layers = options.layers ?? ["L1"];
  const prompts = layers.map((layer) => {
    const { system, user } = bundle.render(masked.input, bundle.budgets.find((p) => p.family === layer)!);
    return { layer, system, user };
  });
  const deciding = prompts.at(-1)!;
  const answer = analysePrompt(deciding.system, deciding.user);
  const id =
    options.id ?? `pkg-${options.golden}-${version}-${layers.join("")}${options.redact ? "-masked" : ""}`;
  return {
    id,
    eventId: golden.eventId,
    correlationId: `corr-${id}`,
    at: CAPTURED_AT,
    prompts,
    input: masked.input,
    metadata: {
      eventKind: "SIGN_IN_COMPLETED",
      userId: "user-1",
      action: answer.action,
      riskScore: answer.riskScore,
      confidence: answer.confidence,
      reasons: reasonsOf(answer.reasoning, answer.evidenceRefs),
      layer: deciding.layer,
      bundleVersion: version,
      bundleHash: entry.manifest.bundleHash,
      selectionSource: "REGISTRY",
      stage: "ENFORCE",
      release: {
        registryScope: PLATFORM_GLOBAL_SCOPE,
        promptKey: SECURITY_DECISION_PROMPT_KEY,
        promptVersion: version,
        status: "ACTIVE",
        contractVersion: entry.manifest.descriptor.contractVersion,
        approvedAt: APPROVED.at,
        approvedBy: APPROVED.by,
      },
      model: { id: "offline-analyst", external: options.redact === true },
      timings: { totalMs: 3 },
      redacted: masked.redacted,
    },
  };
}

/** The PLATFORM_GLOBAL registry rows of the build's runnable bundles, as start-up registration writes them. */
export function releaseRows(catalog: BundleCatalog): ReleaseRow[] {
  return catalog.entries
    .filter((e) => e.bundle !== undefined)
    .map((e) => ({
      registryScope: PLATFORM_GLOBAL_SCOPE,
      promptKey: e.manifest.descriptor.promptKey,
      templateKey: e.manifest.descriptor.templateKey,
      promptVersion: e.manifest.descriptor.promptVersion,
      status: "ACTIVE",
      contractVersion: e.manifest.descriptor.contractVersion,
      artifactHash: e.manifest.bundleHash,
      rollbackTargets: e.manifest.rollbackTargets,
      approval: { ...APPROVED, rationale: "registered" },
      registeredAt: APPROVED.at,
      updatedAt: APPROVED.at,
    }));
}

/** A synchronous row lookup over `rows` (what the round reads from its cached registry view). */
export const rowLookup =
  (rows: readonly ReleaseRow[]) =>
  (t: TraceTarget): ReleaseRow | undefined =>
    rows.find(
      (r) =>
        r.registryScope === t.registryScope &&
        r.promptKey === t.promptKey &&
        r.promptVersion === t.promptVersion,
    );
