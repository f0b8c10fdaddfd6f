import { createHash } from "node:crypto";
import type { DependencyContainer } from "tsyringe";
import { SubjectStatusCheck } from "../../identity/authentication/subject-status-check.js";
import { SessionManager } from "../../identity/session/session-manager.js";
import { UserRepository } from "../../identity/users/user-repository.js";
import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock } from "../../kernel/clock.js";
import { EventBus } from "../../kernel/event-bus.js";
import type { PlatformPlugin, PluginContext } from "../../kernel/plugin.js";
import { MFA_ERROR_CODES } from "../../mfa/mfa-error-codes.js";
import { AUTHZ_ERROR_CODES } from "../authz-error-codes.js";
import { PlatformProperties } from "../../kernel/properties.js";
import { ZEROTRUST_THRESHOLD_STRICT } from "../../mfa/adaptive/risk-thresholds.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { AdaptiveMfaZeroTrustListener } from "./adaptive-mfa-zero-trust-listener.js";
import { InMemoryZeroTrustActionStore } from "./in-memory-zero-trust-action-store.js";
import { ZeroTrustActionResolver } from "./zero-trust-action-resolver.js";
import { ZERO_TRUST_CHANGES_TOPIC, ZeroTrustActionService } from "./zero-trust-action-service.js";
import { zeroTrustAvailabilityCheck } from "./zero-trust-availability-check.js";
import { ChangeCounters } from "../../kernel/coordination/change-counters.js";
import { ChangePollerToken } from "../../kernel/coordination/change-poller.js";
import {
  AdministratorAvailabilityCheck,
  AdministratorGuardToken,
} from "../../identity/users/admin/administrator-guard.js";
import { ZeroTrustActionStore } from "./zero-trust-action-store.js";
import { ZeroTrustSubjectStatusCheck } from "./zero-trust-subject-status-check.js";
import { ZERO_TRUST_PROPERTIES } from "./zero-trust.properties.js";
import { ZeroTrustRandom } from "./zero-trust-resolution.js";

/**
 * Zero trust: the action store and resolver (`security.zerotrust.*`), the action service, the subject
 * status check at identity's sign-in, refresh, step-up and `/api/me` checkpoints, and the listener
 * that turns adaptive-MFA assessments and escalations into actions. `authzPlugin` includes it (its
 * PDP consults the resolver); a host without dynamic authorization may install it alone.
 */
export const zeroTrustPlugin: PlatformPlugin = {
  id: "zero-trust",
  properties: ZERO_TRUST_PROPERTIES,
  // Its codes are in the authz table; a CHALLENGE action answers MFA_CHALLENGE_REQUIRED.
  errorCodes: [AUTHZ_ERROR_CODES, MFA_ERROR_CODES],
  register(ctx) {
    registerZeroTrustDefaults(ctx);
    let unsubscribe: (() => void) | undefined;
    ctx.onStart("zero-trust-adaptive-mfa", (c) => {
      // Adaptive MFA (the MFA module) writes actions; without it there is nothing to listen to.
      if (ctx.properties.declares(ZEROTRUST_THRESHOLD_STRICT.key)) {
        unsubscribe = c.resolve(AdaptiveMfaZeroTrustListener).subscribe(c.resolve(EventBus));
      }
    });
    ctx.onStop("zero-trust-adaptive-mfa", async (c) => {
      if (!unsubscribe) return;
      unsubscribe();
      await c.resolve(AdaptiveMfaZeroTrustListener).settled();
    });
  },
};

function registerZeroTrustDefaults(ctx: PluginContext): void {
  ctx.registerDefault(ZeroTrustActionStore, {
    useFactory: (c) => new InMemoryZeroTrustActionStore({ clock: c.resolve(Clock) }),
  });
  ctx.registerDefault(ZeroTrustRandom, { useValue: Math.random });
  // Factories, not decorators: importing the core must not need a Reflect polyfill.
  ctx.registerDefault(ZeroTrustActionResolver, {
    useFactory: (c) =>
      new ZeroTrustActionResolver(
        c.resolve(ZeroTrustActionStore),
        c.resolve(Clock),
        c.resolve(AuditSink),
        c.resolve(PlatformProperties),
        c.resolve(ZeroTrustRandom),
        c.resolve(EventBus),
      ),
  });
  ctx.registerDefault(ZeroTrustActionService, {
    useFactory: (c) => {
      const counters = c.resolve(ChangeCounters);
      const resolver = c.resolve(ZeroTrustActionResolver);
      c.resolve(ChangePollerToken).watch(ZERO_TRUST_CHANGES_TOPIC, () => resolver.invalidateAll());
      // Without the identity module there are no users to check subjects against, nor to guard.
      const identity = c.isRegistered(UserRepository, true);
      return new ZeroTrustActionService(
        c.resolve(ZeroTrustActionStore),
        resolver,
        c.resolve(AuditSink),
        identity ? c.resolve(UserRepository) : undefined,
        identity && c.isRegistered(AdministratorGuardToken, true)
          ? c.resolve(AdministratorGuardToken)
          : undefined,
        () => counters.bump(ZERO_TRUST_CHANGES_TOPIC),
      );
    },
  });
  // An administrator under a live BLOCK or ESCALATE is not available (read from the store, not a cache).
  ctx.registerMember(AdministratorAvailabilityCheck, {
    useFactory: (c) => zeroTrustAvailabilityCheck(c.resolve(ZeroTrustActionStore)),
  });
  // Zero trust at identity's sign-in, refresh, step-up and /api/me checkpoints (a member: hosts add theirs).
  ctx.registerMember(SubjectStatusCheck, {
    useFactory: (c) => {
      const resolver = c.resolve(ZeroTrustActionResolver);
      return new ZeroTrustSubjectStatusCheck({
        resolver,
        audit: c.resolve(AuditSink),
        ...(resolver.settings.sessionTrackingEnabled ? { sessionHandle: sessionHandleOf(c) } : {}),
      });
    },
  });
  ctx.registerDefault(AdaptiveMfaZeroTrustListener, {
    useFactory: (c) =>
      new AdaptiveMfaZeroTrustListener(
        c.resolve(ZeroTrustActionService),
        c.resolve(AuditSink),
        c.resolve(PlatformProperties),
      ),
  });
}

/**
 * The request's session as a zero-trust subject handle: a SHA-256 of the session id, never the id
 * itself (a session id is a bearer secret; subjects appear in admin lists and audit records). Each
 * session id's handle is worked out once and kept in this platform's memory (a SHA-256 per request
 * otherwise), at most MAX_KEPT_SESSION_HANDLES of them, all forgotten when that many are kept.
 */
export function sessionHandleOf(
  c: DependencyContainer,
): (exchange: HttpExchange) => string | undefined | Promise<string | undefined> {
  const sessions = c.isRegistered(SessionManager, true) ? c.resolve(SessionManager) : undefined;
  const handles = new Map<string, string>();
  // Made once, not per request.
  const handleOf = (session: { readonly id: string } | undefined): string | undefined => {
    if (!session) return undefined;
    let handle = handles.get(session.id);
    if (handle === undefined) {
      if (handles.size >= MAX_KEPT_SESSION_HANDLES) handles.clear();
      handle = sessionHandle(session.id);
      handles.set(session.id, handle);
    }
    return handle;
  };
  // No session cookie (bearer and anonymous callers): answer at once, without a promise; nor once the
  // request's session is known (the security context loaded it): only a pending load costs a `then`.
  return (exchange) => {
    if (!sessions || !exchange.cookie(sessions.cookieName)) return undefined;
    const session = sessions.currentOrPending(exchange);
    return session instanceof Promise ? session.then(handleOf) : handleOf(session);
  };
}

/** Most session handles sessionHandleOf keeps (a flood of sessions cannot grow the memo past it). */
const MAX_KEPT_SESSION_HANDLES = 4096;

/** The zero-trust subject handle of a session id (`session:<handle>`): base64url SHA-256, 22 chars. */
export function sessionHandle(sessionId: string): string {
  return createHash("sha256").update(sessionId).digest("base64url").slice(0, 22);
}
