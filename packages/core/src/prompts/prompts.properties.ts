import { z } from "zod";
import { defineProperty } from "../kernel/properties.js";

/** The version the configuration selector runs; blank runs the build default. */
export const PROMPT_BUNDLE_ACTIVE = defineProperty<string>({
  key: "platform.security.tiered.prompt-bundle.active",
  schema: z.string().max(64),
  default: "",
  description: "Version run by the decision pipeline's configuration selector; blank runs the build default.",
});

/** The selectors the decision pipeline can run (the spec's selection sources CONFIGURATION and REGISTRY). */
export const PROMPT_BUNDLE_SELECTORS = ["CONFIGURATION", "REGISTRY"] as const;
/** One of PROMPT_BUNDLE_SELECTORS. */
export type PromptBundleSelectorKind = (typeof PROMPT_BUNDLE_SELECTORS)[number];

/**
 * Which selector chooses each decision's bundle: CONFIGURATION (the version in
 * `prompt-bundle.active`, the same for every request) or REGISTRY (the release registry's ACTIVE or
 * CANARY release of the request's scope; needs promptGovernancePlugin).
 */
export const PROMPT_BUNDLE_SELECTOR = defineProperty<PromptBundleSelectorKind>({
  key: "platform.security.tiered.prompt-bundle.selector",
  schema: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toUpperCase() : v),
    z.enum(PROMPT_BUNDLE_SELECTORS, "must be CONFIGURATION or REGISTRY"),
  ) as z.ZodType<PromptBundleSelectorKind>,
  default: "CONFIGURATION",
  description:
    "Which selector chooses each decision's bundle: CONFIGURATION (prompt-bundle.active) or REGISTRY " +
    "(the release registry's latest ACTIVE release of the request's scope, a CANARY inside its share; " +
    "needs promptGovernancePlugin).",
});

/** Every property of the prompts module, for the plugin's list. */
export const PROMPTS_PROPERTIES = [PROMPT_BUNDLE_ACTIVE, PROMPT_BUNDLE_SELECTOR] as const;
