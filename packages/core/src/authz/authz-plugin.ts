import type { DependencyContainer } from "tsyringe";
import { PolicyChangePoller } from "./policy/policy-change-poller.js";
import { AuditSink } from "../kernel/audit-sink.js";
import { Clock } from "../kernel/clock.js";
import { IdGenerator } from "../kernel/id-generator.js";
import { Logger } from "../kernel/logger.js";
import type { PlatformPlugin, PluginContext } from "../kernel/plugin.js";
import { MFA_ERROR_CODES } from "../mfa/mfa-error-codes.js";
import { AUTHZ_ERROR_CODES } from "./authz-error-codes.js";
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
import { callerContextContributor, SecurityContextHolder } from "./method/security-context-holder.js";
import { RequestPipelineContributor } from "../web/request-pipeline.js";
import { DecisionAuditQueue } from "./pdp/decision-audit-queue.js";
import { DynamicAuthorizationManager } from "./pdp/dynamic-authorization-manager.js";
import { ResolverZeroTrustEvaluator } from "./pdp/resolver-zero-trust-evaluator.js";
import { UrlAuthorizationManager } from "./pdp/url-authorization-manager.js";
import { InMemoryPolicyRepository } from "./policy/in-memory-policy-repository.js";
import { PolicyAdministrationService } from "./policy/policy-administration-service.js";
import { PolicyChangeListener, policyChangeListenersOf } from "./policy/policy-change-listener.js";
import { PolicyRepository } from "./policy/policy-repository.js";
import { InMemoryPolicyRevisionRepository } from "./policy/in-memory-policy-revision-repository.js";
import { PolicyRevisionRepository } from "./policy/policy-revision-repository.js";
import { DefaultPolicyRetrievalPoint, PolicyRetrievalPoint } from "./policy/policy-retrieval-point.js";
import { ZeroTrustActionResolver } from "./zerotrust/zero-trust-action-resolver.js";
import { FilterChainProxy } from "../identity/chain/filter-chain-proxy.js";
import { ChainStaticRuleService, StaticRuleService } from "./static-rules/static-rule-service.js";
import { sessionHandleOf, zeroTrustPlugin } from "./zerotrust/zero-trust-plugin.js";

/**
 * The dynamic authorization module: policy store (PAP/PRP), expression compiler and converter, the
 * dynamic manager (PDP/PEP) behind `anyRequest().access(dynamicAuthorization())`, method protection
 * and reload on every policy change. Every port is a default a host can replace. It includes
 * `zeroTrustPlugin` (installed right after it), whose resolver the PDP consults. Managed resources
 * are the resources module's (`resourcesPlugin`, listed after this one).
 */
export const authzPlugin: PlatformPlugin = {
  id: "authz",
  properties: AUTHZ_PROPERTIES,
  // A policy's CHALLENGE answers the MFA module's MFA_CHALLENGE_REQUIRED (its step-up challenge).
  errorCodes: [AUTHZ_ERROR_CODES, MFA_ERROR_CODES],
  includes: [zeroTrustPlugin],
  register(ctx) {
    registerPolicyDefaults(ctx);
    registerDecisionDefaults(ctx);
    registerStaticRuleDefaults(ctx);
    ctx.registerMember(PolicyChangeListener, {
      useFactory: (c) => ({
        id: "authz-reload",
        onPoliciesChanged: async () => {
          await c.resolve(UrlAuthorizationManager).reload();
          await c.resolve(MethodAuthorizationManager).reload();
        },
      }),
    });
    let poller: PolicyChangePoller | undefined;
    ctx.onStart("authz-policies", async (c) => {
      await c.resolve(UrlAuthorizationManager).initialize();
      await c.resolve(MethodAuthorizationManager).reload();
      poller = policyChangePoller(c, ctx.properties.get(POLICY_REFRESH_INTERVAL));
      await poller.start();
    });
    ctx.onStop("authz-policy-poll", async () => {
      await poller?.stop();
    });
    // Runs after zero trust's stop (reverse plugin order), as the two were one hook before.
    ctx.onStop("authz-decision-audit", (c) => {
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
  ctx.registerDefault(PolicyRevisionRepository, {
    useFactory: (c) => new InMemoryPolicyRevisionRepository({ ids: c.resolve(IdGenerator) }),
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
        revisions: { store: c.resolve(PolicyRevisionRepository), clock: c.resolve(Clock) },
      }),
  });
}

function registerStaticRuleDefaults(ctx: PluginContext): void {
  ctx.registerDefault(StaticRuleService, {
    useFactory: (c) =>
      new ChainStaticRuleService({
        // Read at each call: the chains are assembled at start, after this registration.
        chains: () => (c.isRegistered(FilterChainProxy, true) ? c.resolve(FilterChainProxy).chains : []),
        service: c.resolve(PolicyAdministrationService),
        repository: c.resolve(PolicyRepository),
        audit: c.resolve(AuditSink),
      }),
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
  // The caller current for method protection, just before the route (a step of the request pipeline).
  ctx.registerMember(RequestPipelineContributor, { useValue: callerContextContributor });
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
