import { z } from "zod";
import { PlatformError } from "../../kernel/platform-error.js";
import type { BundleDefinition } from "../../prompts/bundles/bundle-definition.js";
import { DECISION_ACTIONS } from "../../prompts/bundles/output-format.js";

const action = z.enum(DECISION_ACTIONS);
const range = z.tuple([z.number(), z.number()]);

/** Element B6 as this pipeline reads it (`response-inspector/1`). */
const definitionSchema = z.strictObject({
  version: z.literal("response-inspector/1"),
  requiredFields: z.array(z.string()).min(1),
  actions: z.array(action).min(1),
  ranges: z.strictObject({ riskScore: range, confidence: range }),
  reasoningMaxChars: z.number().int().min(1),
  evidenceRefs: z.enum(["section-names", "fact-ids-present-in-prompt"]),
  onViolation: action,
});

/** A bundle's response inspector definition (element B6), checked. */
export type InspectorDefinition = z.output<typeof definitionSchema>;

const cache = new WeakMap<BundleDefinition, InspectorDefinition>();

/**
 * The response inspector definition of `bundle` (element B6, read once per bundle);
 * DECISION_BUNDLE_UNSUPPORTED when it is of a version or shape this pipeline does not read.
 */
export function inspectorDefinitionOf(bundle: BundleDefinition): InspectorDefinition {
  const known = cache.get(bundle);
  if (known) return known;
  const parsed = definitionSchema.safeParse(bundle.responseInspector);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(B6)"}: ${i.message}`);
    throw new PlatformError(
      "DECISION_BUNDLE_UNSUPPORTED",
      `Bundle ${bundle.descriptor.promptVersion}: its response inspector (B6) is not one this pipeline reads`,
      { details: { version: bundle.descriptor.promptVersion, element: "B6", issues } },
    );
  }
  cache.set(bundle, parsed.data);
  return parsed.data;
}
