// Test support of the decisions module: the golden inputs and renders of the prompts module, a
// selection of each runnable bundle, and a scripted model for answers the analyst never gives.
import type { BudgetProfile } from "../prompts/bundles/budget-profile.js";
import type { BundleDefinition } from "../prompts/bundles/bundle-definition.js";
import { V19_BUNDLE } from "../prompts/bundles/v19-bundle.js";
import { V20_BUNDLE } from "../prompts/bundles/v20-bundle.js";
import { type PromptInput, parsePromptInput } from "../prompts/input/prompt-input.js";
import { DEFAULT_BUNDLE_ROOT, readGoldenInputs } from "../prompts/manifest/bundle-root.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { OfflineAnalyst } from "./analyst/offline-analyst.js";
import type { BundleSelection } from "./engine/bundle-selection.js";
import type { DecisionBudget, DecisionModel } from "./model/decision-model.js";

/** The golden inputs' names, each in both bundles unless noted (partly-known is v20's only). */
export const GOLDEN = [
  "internal-read",
  "external-admin-delete",
  "every-fact-missing",
  "long-history",
] as const;

const inputs = readGoldenInputs(DEFAULT_BUNDLE_ROOT, [...GOLDEN, "partly-known"]);

/** A golden input, parsed. */
export function golden(name: string): PromptInput {
  return parsePromptInput(inputs.get(name));
}

/** The committed golden render of `name` under `profile` of `bundle` (`prompt-bundles/golden/renders`). */
export function goldenRender(
  bundle: BundleDefinition,
  name: string,
  profile: "L1-standard" | "L2-deep",
): string {
  const dir = join(DEFAULT_BUNDLE_ROOT, "golden", "renders", bundle.descriptor.promptVersion);
  return readFileSync(join(dir, `${name}.${profile}.txt`), "utf8");
}

/** The bundle's profile of a family. */
export function profileOf(bundle: BundleDefinition, family: "L1" | "L2"): BudgetProfile {
  return bundle.budgets.find((p) => p.family === family)!;
}

/** The manifest hashes of the runnable bundles (read from the committed manifests). */
function manifestHash(bundle: BundleDefinition): string {
  const file = join(
    DEFAULT_BUNDLE_ROOT,
    "manifests",
    bundle.descriptor.promptKey,
    `${bundle.descriptor.promptVersion}.json`,
  );
  return (JSON.parse(readFileSync(file, "utf8")) as { bundleHash: string }).bundleHash;
}

/** A selection of v19 (the build default) or v20, as the configuration selector would make it. */
export function selectionOf(bundle: BundleDefinition = V20_BUNDLE): BundleSelection {
  return {
    version: bundle.descriptor.promptVersion,
    bundle,
    bundleHash: manifestHash(bundle),
    source: bundle === V19_BUNDLE ? "BUILD_DEFAULT" : "CONFIGURATION",
  };
}

/** One scripted step: a fixed answer text, an error to throw, or `analyst` for the offline analyst's answer. */
export type ScriptStep = string | Error | "analyst" | ((analystAnswer: Record<string, unknown>) => unknown);

/**
 * A model that answers from a script, one step per call, then like the offline analyst. It stands
 * in for a model that misbehaves in ways the analyst never does; it records every call.
 */
export class ScriptedModel implements DecisionModel {
  readonly name = "test:scripted";
  readonly calls: { system: string; user: string; budget: DecisionBudget }[] = [];
  private readonly analyst = new OfflineAnalyst();

  constructor(private readonly script: ScriptStep[] = []) {}

  async complete(system: string, user: string, budget: DecisionBudget, signal: AbortSignal): Promise<string> {
    this.calls.push({ system, user, budget });
    const step = this.script.shift() ?? "analyst";
    if (step instanceof Error) throw step;
    const honest = await this.analyst.complete(system, user, budget, signal);
    if (step === "analyst") return honest;
    if (typeof step === "function") return JSON.stringify(step(JSON.parse(honest)));
    return step;
  }
}
