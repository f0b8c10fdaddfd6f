import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { BudgetProfile } from "../../prompts/bundles/budget-profile.js";
import type { BundleDefinition } from "../../prompts/bundles/bundle-definition.js";
import type { PromptInput } from "../../prompts/input/prompt-input.js";
import { applyFloors, minimumActionRulesOf } from "../floors/minimum-action-rules.js";
import { inspectorDefinitionOf } from "../inspector/inspector-definition.js";
import type { DecisionModel } from "../model/decision-model.js";
import type { BundleSelection } from "./bundle-selection.js";
import type { DecisionEngine } from "./decision-engine.js";
import type { DecisionEngineResult, LayerOutcome } from "./decision-record.js";
import { runLayer } from "./run-layer.js";

/** Options of the layered engine; the plugin fills them from the decisions properties. */
export interface LayeredDecisionEngineOptions {
  readonly model: DecisionModel;
  readonly clock: Clock;
  /** L1 answers below this confidence go to L2 (`platform.security.decision.escalation-confidence`). */
  readonly escalationConfidence: number;
  /** Time budgets of one model call per layer, in milliseconds. */
  readonly timeouts: { readonly L1: number; readonly L2: number };
}

function profileOf(bundle: BundleDefinition, family: "L1" | "L2"): BudgetProfile {
  const profile = bundle.budgets.find((p) => p.family === family);
  if (profile) return profile;
  const version = bundle.descriptor.promptVersion;
  throw new PlatformError(
    "DECISION_BUNDLE_UNSUPPORTED",
    `Bundle ${version} has no ${family} budget profile`,
    {
      details: { version, element: "B8", issues: [`no ${family} profile`] },
    },
  );
}

/**
 * The two-layer decision engine: L1 with the bundle's L1 profile; L2 with its L2 profile when L1
 * answered ESCALATE (or fell back, whose action is ESCALATE in both bundles) or was less confident
 * than the escalation threshold. The last layer decides; the floor is applied to its action.
 */
export class LayeredDecisionEngine implements DecisionEngine {
  constructor(private readonly options: LayeredDecisionEngineOptions) {}

  async decide(
    context: PromptInput,
    selection: BundleSelection,
    signal: AbortSignal,
  ): Promise<DecisionEngineResult> {
    const { bundle } = selection;
    inspectorDefinitionOf(bundle);
    minimumActionRulesOf(bundle);
    const profiles = { L1: profileOf(bundle, "L1"), L2: profileOf(bundle, "L2") };
    const { model, clock, timeouts } = this.options;
    const startedAt = clock.now();
    const layers: LayerOutcome[] = [];
    const timings: { layer: "L1" | "L2"; ms: number }[] = [];
    const run = async (layer: "L1" | "L2") => {
      const started = clock.now();
      const outcome = await runLayer({
        layer,
        model,
        bundle,
        profile: profiles[layer],
        timeoutMs: timeouts[layer],
        context,
        clock,
        signal,
      });
      timings.push({ layer, ms: clock.now() - started });
      return outcome;
    };
    let final = await run("L1");
    const escalated = this.escalation(final);
    if (escalated && !signal.aborted) {
      layers.push({ ...final, escalated });
      final = await run("L2");
    }
    layers.push(final);
    const { action, floor } = applyFloors(final.action, bundle, context);
    return {
      record: {
        eventId: context.eventId,
        action,
        riskScore: final.riskScore,
        confidence: final.confidence,
        reasons: final.reasons,
        layer: final.layer,
        bundle: {
          version: bundle.descriptor.promptVersion,
          hash: selection.bundleHash,
          layout: bundle.layout,
        },
        selectionSource: selection.source,
        model: model.name,
        timings: { startedAt, totalMs: clock.now() - startedAt, layers: timings },
        ...(floor ? { floor } : {}),
        ...(final.fallback ? { fallback: final.fallback } : {}),
      },
      layers,
    };
  }

  private escalation(l1: LayerOutcome): "ESCALATE" | "LOW_CONFIDENCE" | undefined {
    if (l1.action === "ESCALATE") return "ESCALATE";
    return l1.confidence < this.options.escalationConfidence ? "LOW_CONFIDENCE" : undefined;
  }
}
