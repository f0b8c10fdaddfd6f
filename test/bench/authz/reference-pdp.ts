import { performance } from "node:perf_hooks";
import type { Policy } from "../../../packages/core/src/authz/policy/policy.js";
import type { ZeroTrustAction } from "../../../packages/core/src/authz/zerotrust/zero-trust-action.js";
import type { BenchDecision, BenchRequest } from "./bench-types.js";
import type { PdpBuildOptions, PdpUnderTest } from "./pdp-under-test.js";
import { type ReferenceDecision, ReferenceEvaluator } from "./reference-evaluator.js";

/** The reference evaluator with the action table bound and zero trust in ENFORCE: what the mismatch pass compares against. */
export class ReferencePdp implements PdpUnderTest {
  readonly name = "reference evaluator (test/bench/authz)";
  private evaluator: ReferenceEvaluator | undefined;
  private actions: ReadonlyMap<string, ZeroTrustAction> = new Map();

  async build(policies: readonly Policy[], options: PdpBuildOptions): Promise<{ buildMs: number }> {
    const t0 = performance.now();
    this.evaluator = new ReferenceEvaluator(policies, options.algorithm, {
      mode: "ENFORCE",
      actionsRecordedAt: options.actionsRecordedAt,
    });
    this.actions = options.actions;
    return { buildMs: performance.now() - t0 };
  }

  async decide(request: BenchRequest): Promise<BenchDecision> {
    return this.decideSync(request);
  }

  /** The same decision without a promise, for the comparison pass. */
  decideSync(request: BenchRequest): ReferenceDecision {
    if (!this.evaluator) throw new Error("ReferencePdp: build() first");
    const userId = request.authentication?.userId;
    return this.evaluator.decide({
      ...request,
      zeroTrustAction: userId === undefined ? undefined : this.actions.get(userId),
    });
  }
}
