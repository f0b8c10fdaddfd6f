import { z } from "zod";
import { defineProperty } from "../kernel/properties.js";

/** The version the configuration selector runs; blank runs the build default. */
export const PROMPT_BUNDLE_ACTIVE = defineProperty<string>({
  key: "platform.security.tiered.prompt-bundle.active",
  schema: z.string().max(64),
  default: "",
  description: "Version run by the decision pipeline's configuration selector; blank runs the build default.",
});

/** Every property of the prompts module, for the plugin's list. */
export const PROMPTS_PROPERTIES = [PROMPT_BUNDLE_ACTIVE] as const;
