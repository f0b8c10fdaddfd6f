import { isPlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { EscalationService } from "../escalation/escalation-service.js";
import type { FactorContextRepository } from "../state/factor-context-repository.js";
import { isTerminal } from "../state/mfa-state.js";
import type { MfaCallerBinding } from "./mfa-caller-binding.js";
import type { MfaRuntime } from "./mfa-runtime.js";

/** What logout needs to end a caller's pending MFA. */
export interface PendingMfaPorts {
  runtime: MfaRuntime;
  contexts: FactorContextRepository;
  /** Reads the caller's `PLATFORM_MFA` cookie (the runtime's own binding clears it on finish). */
  binding: MfaCallerBinding;
  escalations: EscalationService;
}

/**
 * The logout hook of MFA: ends the flow the caller's `PLATFORM_MFA` cookie binds (a sign-in's MFA or a
 * step-up: SESSION_INVALIDATED by compare-and-set, then removed) and the escalation its
 * `PLATFORM_ESCALATION` cookie binds, and clears both cookies. A cookie without the flow's secret ends
 * nothing. A copy of the cookie held elsewhere cannot use a flow this missed either: a step-up
 * completes only for a sign-in that is still alive (`completeStepUp`).
 */
export function endPendingMfa(ports: PendingMfaPorts): (exchange: HttpExchange) => Promise<void> {
  return async (exchange) => {
    await endCallerFlow(exchange, ports);
    await ports.escalations.cancel(exchange);
  };
}

async function endCallerFlow(exchange: HttpExchange, ports: PendingMfaPorts): Promise<void> {
  const { runtime, contexts, binding } = ports;
  const id = binding.sessionIdOf(exchange);
  if (id === undefined) return;
  const ctx = id.length <= 128 ? await contexts.find(id) : undefined;
  if (!ctx || !binding.matches(exchange, ctx.mfaSessionId, ctx.callerBinding)) {
    binding.clear(exchange);
    return;
  }
  if (!isTerminal(ctx.state)) {
    try {
      await runtime.step(ctx, "SESSION_INVALIDATED", { detail: "logout" });
    } catch (error) {
      // A concurrent step won the compare-and-set (or ended the flow): it is removed below anyway.
      if (!isPlatformError(error)) throw error;
    }
  }
  await runtime.finish(exchange, ctx);
}
