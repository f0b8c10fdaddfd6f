import type { EventBus } from "../../kernel/event-bus.js";
import { publishWithoutWaiting, SIGN_IN_COMPLETED_EVENT } from "../events/identity-events.js";
import type { SecurityContextRepository } from "./security-context-repository.js";
import { correlated } from "../events/correlated.js";

/**
 * Wraps a chain's own repository (innermost, under the MFA gate and the `sign-in` checkpoint) so that
 * SIGN_IN_COMPLETED_EVENT is published once the sign-in is stored: after every gate let it through and
 * the session was saved (a token chain issues its tokens right after). A sign-in refused by a
 * SubjectStatusCheck, held for a second factor or an escalation, or failed, never reaches here. A
 * completed MFA flow saves through this too (method `mfa`, or the primary's when no factor was due).
 */
export function signInPublishingRepository(
  inner: SecurityContextRepository,
  events: EventBus | undefined,
): SecurityContextRepository {
  if (events === undefined) return inner;
  return {
    name: `${inner.name}+sign-in-event`,
    load: (exchange) => inner.load(exchange),
    clear: (exchange) => inner.clear(exchange),
    save: async (exchange, authentication) => {
      await inner.save(exchange, authentication);
      publishWithoutWaiting(events, SIGN_IN_COMPLETED_EVENT, {
        userId: authentication.userId,
        username: authentication.username,
        method: authentication.method,
        ...(exchange.remoteAddress ? { remoteAddress: exchange.remoteAddress } : {}),
        ...correlated(exchange),
      });
    },
  };
}
