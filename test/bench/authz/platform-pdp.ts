import "reflect-metadata";
import { authzPlugin, createPlatform, type Platform } from "@keyward/core";
import { ZeroTrustActionService, zeroTrustUserSubject } from "@keyward/core/authz";
import { AuditSink, Clock, type Policy, PolicyRetrievalPoint } from "@keyward/core/ports";
import { ManualClock } from "@keyward/core/testing";
import { HttpExchange } from "@keyward/core/web";
import { DecisionAuditQueue } from "../../../packages/core/src/authz/pdp/decision-audit-queue.js";
import type { PolicyDecision } from "../../../packages/core/src/authz/pdp/policy-decision.js";
import { UrlAuthorizationManager } from "../../../packages/core/src/authz/pdp/url-authorization-manager.js";
import { InMemoryAuditSink } from "../../../packages/core/src/kernel/in-memory-audit-sink.js";
import type { BenchDecision, BenchRequest } from "./bench-types.js";
import type { PdpBuildOptions, PdpUnderTest } from "./pdp-under-test.js";

/** A PRP over an array the bench replaces on each build (the store is not what is measured). */
class ArrayRetrievalPoint implements PolicyRetrievalPoint {
  policies: readonly Policy[] = [];
  async findUrlPolicies(): Promise<Policy[]> {
    return this.policies.filter((p) => p.targets.some((t) => t.targetType === "URL"));
  }
  async findMethodPolicies(): Promise<Policy[]> {
    return this.policies.filter((p) => p.targets.some((t) => t.targetType === "METHOD"));
  }
}

/**
 * The platform's DynamicAuthorizationManager as the bench drives it: a real platform (authzPlugin)
 * with its zero-trust resolver (ENFORCE, hot path on), the DecisionAuditQueue in front of an
 * InMemoryAuditSink, and `check(authentication, exchange)` per request. Exchanges are built once per
 * request object (the HTTP binding builds them, not the PDP).
 */
export function createPlatformPdp(): PdpUnderTest {
  let platform: Platform | undefined;
  let algorithm = "";
  let manager: UrlAuthorizationManager | undefined;
  const prp = new ArrayRetrievalPoint();
  const clock = new ManualClock(0);
  const audit = new InMemoryAuditSink(1_000_000, clock);
  const exchanges = new WeakMap<BenchRequest, HttpExchange>();

  let denied = 0;
  const count = (d: PolicyDecision): PolicyDecision => {
    if (!d.granted) denied++;
    return d;
  };
  // Audit queue counters of platforms already stopped (one platform per algorithm).
  const closed = { delivered: 0, dropped: 0 };
  const queueTotals = (): { delivered: number; dropped: number } => {
    const queue = platform?.resolve(DecisionAuditQueue);
    queue?.drain();
    const now = queue?.stats() ?? { recorded: 0, dropped: 0 };
    return { delivered: closed.delivered + now.recorded, dropped: closed.dropped + now.dropped };
  };

  async function platformFor(options: PdpBuildOptions): Promise<Platform> {
    if (platform && algorithm === options.algorithm) return platform;
    if (platform) {
      const totals = queueTotals();
      closed.delivered = totals.delivered;
      closed.dropped = totals.dropped;
      await platform.stop();
    }
    algorithm = options.algorithm;
    platform = createPlatform({
      plugins: [authzPlugin],
      env: {},
      properties: {
        "platform.policy.combining-algorithm": options.algorithm,
        "security.zerotrust.mode": "ENFORCE",
        "security.zerotrust.pending-analysis": "ALLOW",
        "platform.policy.time-zone": "UTC",
      },
      register: (c) => {
        c.registerInstance(Clock, clock);
        c.registerInstance(AuditSink, audit);
        c.registerInstance(PolicyRetrievalPoint, prp);
      },
    });
    await platform.start();
    return platform;
  }

  return {
    name: "platform DynamicAuthorizationManager.check()",
    async build(policies, options) {
      const p = await platformFor(options);
      clock.set(options.actionsRecordedAt);
      const service = p.resolve(ZeroTrustActionService);
      for (const [userId, action] of options.actions) {
        if (action !== "PENDING_ANALYSIS")
          await service.set(zeroTrustUserSubject(userId), action, { source: "host" });
      }
      clock.set(options.now);
      prp.policies = policies;
      manager = p.resolve(UrlAuthorizationManager);
      const report = await manager.reload();
      return { buildMs: report.buildMs };
    },
    decide(request): Promise<BenchDecision> {
      // One exchange per request object (the HTTP binding builds exchanges, not the PDP).
      let exchange = exchanges.get(request);
      if (!exchange) {
        exchange = new HttpExchange({
          method: request.method,
          url: request.path,
          headers: {},
          remoteAddress: request.remoteAddress,
        });
        exchanges.set(request, exchange);
      }
      // A PolicyDecision is a BenchDecision (granted, policyId): handed back as is. The manager
      // answers a decision made at once without a promise; the bench's contract is a promise.
      const decision = manager!.check(request.authentication, exchange);
      return decision instanceof Promise ? decision.then(count) : Promise.resolve(count(decision));
    },
    auditStats() {
      return { denied, ...queueTotals() };
    },
    auditedDenials() {
      platform?.resolve(DecisionAuditQueue).drain();
      return audit.events().filter((e) => e.type === "authz.denied").length;
    },
    async close() {
      await platform?.stop();
    },
  };
}
