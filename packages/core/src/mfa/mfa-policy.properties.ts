import { z } from "zod";
import { defineProperty, prop } from "../kernel/properties.js";

/** Which MfaPolicyProvider is the default (a host's registered provider always wins). */
export const MFA_POLICY = defineProperty<"default" | "adaptive">({
  key: "platform.auth.mfa.policy",
  schema: z.enum(["default", "adaptive"], "must be default or adaptive"),
  default: "default",
  description:
    "default: static role rules; adaptive: risk score from the RiskAnalyzer, falling back to the default rules.",
});

/** Whether the built-in heuristic RiskAnalyzer is registered when the host registers none. */
export const MFA_BUILTIN_ANALYZER = defineProperty({
  key: "platform.auth.mfa.adaptive.builtin-analyzer",
  schema: prop.bool(),
  default: true,
  description:
    "Register the offline HeuristicRiskAnalyzer when the host gives no RiskAnalyzer (false: analyzer absent).",
});

/** Whether the adaptive policy may let holders of requiredAuthorities in without MFA on a low score. */
export const MFA_ADAPTIVE_ALLOW_SKIP_FOR_REQUIRED = defineProperty({
  key: "platform.auth.mfa.adaptive.allow-skip-for-required-authorities",
  schema: prop.bool(),
  default: false,
  description:
    "false: under the adaptive policy a holder of platform.auth.mfa.requiredAuthorities always gets at " +
    "least a challenge, and a challenge instead of administrator review at a strict score; true (a risk): " +
    "a low score lets them sign in with the password alone, and an approved review without a second factor.",
});
