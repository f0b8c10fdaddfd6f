import { PlatformProperties } from "../kernel/properties.js";
import { createHash } from "node:crypto";
import type { DependencyContainer } from "tsyringe";
import { PolicyChangePoller } from "./policy/policy-change-poller.js";
import { SubjectStatusCheck } from "../identity/authentication/subject-status-check.js";
import { SessionManager } from "../identity/session/session-manager.js";
import { UserRepository } from "../identity/users/user-repository.js";
import { AuditSink } from "../kernel/audit-sink.js";
import type { HttpExchange } from "../web/http-exchange.js";
import { Clock } from "../kernel/clock.js";
import { EventBus } from "../kernel/event-bus.js";
import { IdGenerator } from "../kernel/id-generator.js";
import { Logger } from "../kernel/logger.js";
import type { PlatformPlugin, PluginContext } from "../kernel/plugin.js";
import {
  AUTHZ_PROPERTIES,
  POLICY_REFRESH_INTERVAL,
  POLICY_COMBINING_ALGORITHM,
  POLICY_NO_MATCH_DECISION,
  POLICY_TIME_ZONE,
  resolveTimeZone,
} from "./authz.properties.js";
import { ExpressionCompiler } from "./expression/expression-compiler.js";
import { PolicyExpressionConverter } from "./expression/policy-expression-converter.js";
import { MethodAuthorizationManager } from "./method/method-authorization-manager.js";
import { PolicyMethodAuthorizationManager } from "./method/policy-method-authorization-manager.js";
import { MethodSecurity } from "./method/method-security.js";
import { AuthorityPermissionEvaluator, PermissionEvaluator } from "./method/permission-evaluator.js";
import { SecurityContextHolder } from "./method/security-context-holder.js";
import { DecisionAuditQueue } from "./pdp/decision-audit-queue.js";
import { DynamicAuthorizationManager } from "./pdp/dynamic-authorization-manager.js";
import { ResolverZeroTrustEvaluator } from "./pdp/resolver-zero-trust-evaluator.js";
import { UrlAuthorizationManager } from "./pdp/url-authorization-manager.js";
import { InMemoryPolicyRepository } from "./policy/in-memory-policy-repository.js";
import { PolicyAdministrationService } from "./policy/policy-administration-service.js";
import { PolicyChangeListener, policyChangeListenersOf } from "./policy/policy-change-listener.js";
import { PolicyRepository } from "./policy/policy-repository.js";
import { DefaultPolicyRetrievalPoint, PolicyRetrievalPoint } from "./policy/policy-retrieval-point.js";
import { AdaptiveMfaZeroTrustListener } from "./zerotrust/adaptive-mfa-zero-trust-listener.js";
import { InMemoryZeroTrustActionStore } from "./zerotrust/in-memory-zero-trust-action-store.js";
import { ZeroTrustActionResolver } from "./zerotrust/zero-trust-action-resolver.js";
import { ZeroTrustActionService } from "./zerotrust/zero-trust-action-service.js";
import { ZeroTrustActionStore } from "./zerotrust/zero-trust-action-store.js";
import { ZeroTrustSubjectStatusCheck } from "./zerotrust/zero-trust-subject-status-check.js";
import { ZERO_TRUST_PROPERTIES } from "./zerotrust/zero-trust.properties.js";
import { ZeroTrustRandom } from "./zerotrust/zero-trust-resolution.js";
import { ZEROTRUST_THRESHOLD_STRICT } from "../mfa/adaptive/risk-thresholds.js";

/**
 * The dynamic authorization module: policy store (PAP/PRP), expression compiler and converter, the
 * dynamic manager (PDP/PEP) behind `anyRequest().access(dynamicAuthorization())`, method protection,
 * zero trust, and reload on every policy change. Every port is a default a host can replace.
 */
export const authzPlugin: PlatformPlugin = {
  id: "authz",
  properties: [...AUTHZ_PROPERTIES, ...ZERO_TRUST_PROPERTIES],
  register(ctx) {
    registerPolicyDefaults(ctx);
    registerZeroTrustDefaults(ctx);
    registerDecisionDefaults(ctx);
    ctx.registerMember(PolicyChangeListener, {
      useFactory: (c) => ({
        id: "authz-reload",
        onPoliciesChanged: async () => {
          await c.resolve(UrlAuthorizationManager).reload();
          await c.resolve(MethodAuthorizationManager).reload();
        },
      }),
    });
    let unsubscribe: (() => void) | undefined;
    let poller: PolicyChangePoller | undefined;
    ctx.onStart("authz-policies", async (c) => {
      await c.resolve(UrlAuthorizationManager).initialize();
      await c.resolve(MethodAuthorizationManager).reload();
      poller = policyChangePoller(c, ctx.properties.get(POLICY_REFRESH_INTERVAL));
      await poller.start();
      // Adaptive MFA (identity module) writes actions; without it there is nothing to listen to.
      if (ctx.properties.declares(ZEROTRUST_THRESHOLD_STRICT.key)) {
        unsubscribe = c.resolve(AdaptiveMfaZeroTrustListener).subscribe(c.resolve(EventBus));
      }
    });
    ctx.onStop("authz-policy-poll", async () => {
      await poller?.stop();
    });
    ctx.onStop("authz-zero-trust", async (c) => {
      if (unsubscribe) {
        unsubscribe();
        await c.resolve(AdaptiveMfaZeroTrustListener).settled();
      }
      c.resolve(DecisionAuditQueue).drain();
    });
  },
};

/** Reloads this instance's decision points when another instance changed the shared policy store. */
function policyChangePoller(c: DependencyContainer, intervalMs: number): PolicyChangePoller {
  return new PolicyChangePoller({
    repository: c.resolve(PolicyRepository),
    intervalMs,
    logger: c.resolve(Logger),
    reload: async () => {
      await c.resolve(UrlAuthorizationManager).reload();
      await c.resolve(MethodAuthorizationManager).reload();
    },
  });
}

function registerPolicyDefaults(ctx: PluginContext): void {
  ctx.registerDefault(PolicyRepository, {
    useFactory: (c) => new InMemoryPolicyRepository({ clock: c.resolve(Clock), ids: c.resolve(IdGenerator) }),
  });
  ctx.registerDefault(PolicyRetrievalPoint, {
    useFactory: (c) => new DefaultPolicyRetrievalPoint({ repository: c.resolve(PolicyRepository) }),
  });
  ctx.registerDefault(ExpressionCompiler, { useFactory: () => new ExpressionCompiler() });
  ctx.registerDefault(PolicyExpressionConverter, { useFactory: () => new PolicyExpressionConverter() });
  ctx.registerDefault(PolicyAdministrationService, {
    useFactory: (c) =>
      new PolicyAdministrationService({
        repository: c.resolve(PolicyRepository),
        compiler: c.resolve(ExpressionCompiler),
        converter: c.resolve(PolicyExpressionConverter),
        audit: c.resolve(AuditSink),
        logger: c.resolve(Logger),
        listeners: policyChangeListenersOf(c),
      }),
  });
}

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
      ),
  });
  ctx.registerDefault(ZeroTrustActionService, {
    useFactory: (c) =>
      new ZeroTrustActionService(
        c.resolve(ZeroTrustActionStore),
        c.resolve(ZeroTrustActionResolver),
        c.resolve(AuditSink),
        // Without the identity module there are no users to check subjects against.
        c.isRegistered(UserRepository, true) ? c.resolve(UserRepository) : undefined,
      ),
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

function registerDecisionDefaults(ctx: PluginContext): void {
  const { properties } = ctx;
  const timeZone = resolveTimeZone(properties.get(POLICY_TIME_ZONE));
  ctx.registerDefault(DecisionAuditQueue, {
    useFactory: (c) => new DecisionAuditQueue({ sink: c.resolve(AuditSink) }),
  });
  ctx.registerDefault(UrlAuthorizationManager, {
    useFactory: (c) => {
      const resolver = c.resolve(ZeroTrustActionResolver);
      const audit = c.resolve(DecisionAuditQueue);
      return new DynamicAuthorizationManager({
        prp: c.resolve(PolicyRetrievalPoint),
        compiler: c.resolve(ExpressionCompiler),
        converter: c.resolve(PolicyExpressionConverter),
        audit,
        auditAdmits: () => audit.accepts(),
        clock: c.resolve(Clock),
        algorithm: properties.get(POLICY_COMBINING_ALGORITHM),
        noMatchGranted: properties.get(POLICY_NO_MATCH_DECISION) === "ALLOW",
        timeZone,
        zeroTrust: new ResolverZeroTrustEvaluator(resolver, c.resolve(Clock)),
        ...(resolver.settings.sessionTrackingEnabled ? { sessionId: sessionHandleOf(c) } : {}),
        logger: c.resolve(Logger),
      });
    },
  });
  ctx.registerDefault(PermissionEvaluator, { useFactory: () => new AuthorityPermissionEvaluator() });
  ctx.registerDefault(SecurityContextHolder, { useFactory: () => new SecurityContextHolder() });
  ctx.registerDefault(MethodAuthorizationManager, {
    useFactory: (c) =>
      new PolicyMethodAuthorizationManager({
        prp: c.resolve(PolicyRetrievalPoint),
        compiler: c.resolve(ExpressionCompiler),
        converter: c.resolve(PolicyExpressionConverter),
        permissions: c.resolve(PermissionEvaluator),
        audit: c.resolve(DecisionAuditQueue),
        clock: c.resolve(Clock),
        timeZone,
      }),
  });
  ctx.registerDefault(MethodSecurity, {
    useFactory: (c) =>
      new MethodSecurity(c.resolve(MethodAuthorizationManager), c.resolve(SecurityContextHolder)),
  });
}

/**
 * The request's session as a zero-trust subject handle: a SHA-256 of the session id, never the id
 * itself (a session id is a bearer secret; subjects appear in admin lists and audit records).
 */
function sessionHandleOf(
  c: DependencyContainer,
): (exchange: HttpExchange) => Promise<string | undefined> | undefined {
  const sessions = c.isRegistered(SessionManager, true) ? c.resolve(SessionManager) : undefined;
  // No session cookie (bearer and anonymous callers): answer at once, without a promise.
  return (exchange) =>
    sessions && exchange.cookie(sessions.cookieName)
      ? sessions.current(exchange).then((s) => (s ? sessionHandle(s.id) : undefined))
      : undefined;
}

/** The zero-trust subject handle of a session id (`session:<handle>`): base64url SHA-256, 22 chars. */
export function sessionHandle(sessionId: string): string {
  return createHash("sha256").update(sessionId).digest("base64url").slice(0, 22);
}
