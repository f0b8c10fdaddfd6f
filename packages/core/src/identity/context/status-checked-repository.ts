import type { SubjectStatusGate } from "../authentication/subject-status-check.js";
import type { SecurityContextRepository } from "./security-context-repository.js";

/**
 * Wraps a chain's repository so that every sign-in it stores first passes the `sign-in` checkpoint:
 * a refusal is thrown before the inner `save`, so no session is created or rotated, no MFA challenge
 * starts (an MFA gate wrapped inside) and a token chain's success handler never issues tokens. Every
 * sign-in path ends in `save` (form, REST, OTT, passkey, a completed MFA flow, an approved escalation).
 */
export function statusCheckedRepository(
  inner: SecurityContextRepository,
  gate: SubjectStatusGate,
): SecurityContextRepository {
  return {
    name: `${inner.name}+status-check`,
    load: (exchange) => inner.load(exchange),
    clear: (exchange) => inner.clear(exchange),
    save: async (exchange, authentication) => {
      await gate({ checkpoint: "sign-in", authentication, exchange });
      await inner.save(exchange, authentication);
    },
  };
}
