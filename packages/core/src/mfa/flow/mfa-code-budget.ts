import { PlatformError } from "../../kernel/platform-error.js";
import type { FactorContext } from "../state/factor-context.js";

/** Most codes one MFA flow may send (the first send plus resends, through any endpoint). */
export const MAX_CODES_PER_MFA_SESSION = 5;

/** True while the flow may still send a code (`codesSent` is counted by INITIATE_CHALLENGE). */
export function hasCodeBudget(ctx: FactorContext): boolean {
  return (ctx.codesSent ?? 0) < MAX_CODES_PER_MFA_SESSION;
}

/** The refusal of a send past the limit: 429 TOO_MANY_ATTEMPTS with `retryAfterSeconds`. */
export function codeBudgetExhausted(retryAfterSeconds: number): PlatformError {
  return new PlatformError("TOO_MANY_ATTEMPTS", "Too many codes were requested for this sign-in", {
    details: { retryAfterSeconds, maxCodes: MAX_CODES_PER_MFA_SESSION },
  });
}
