import { defineProperty, prop } from "../../kernel/properties.js";

/** A step slower than this publishes a PerformanceAlertEvent. */
export const MFA_PERFORMANCE_ALERT = defineProperty({
  key: "platform.auth.mfa.performanceAlertMs",
  schema: prop.duration(),
  default: 1000,
  description:
    "An MFA step (policy, state change, delivery hand-off) slower than this publishes a PerformanceAlertEvent.",
});
