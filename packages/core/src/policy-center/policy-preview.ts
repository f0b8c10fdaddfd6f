import { simulatedSubject } from "../authz/admin/policy-simulation-endpoint.js";
import type { ExpressionCompiler } from "../authz/expression/expression-compiler.js";
import type { PolicyExpressionConverter } from "../authz/expression/policy-expression-converter.js";
import type { CombiningAlgorithm } from "../authz/pdp/combining-algorithm.js";
import { CompiledPolicySet } from "../authz/pdp/compiled-policy-set.js";
import type { PolicyDecision, PolicyTrailEntry } from "../authz/pdp/policy-decision.js";
import { explainDecision } from "../authz/pdp/policy-evaluation.js";
import { type Policy, TARGET_TYPES, type TargetType } from "../authz/policy/policy.js";
import { checkPolicyExpressions } from "../authz/policy/policy-expression-check.js";
import type { PolicyRetrievalPoint } from "../authz/policy/policy-retrieval-point.js";
import {
  type PolicyCreate,
  type PolicyCreateInput,
  parsePolicyCreate,
} from "../authz/policy/policy-schema.js";
import type { ZeroTrustAction } from "../authz/zerotrust/zero-trust-action.js";
import { isPathAllowed } from "../identity/chain/request-firewall.js";
import type { Clock } from "../kernel/clock.js";
import { PlatformError } from "../kernel/platform-error.js";
import type { ManagedResourceRepository } from "../resources/managed-resource-repository.js";
import { relationOf, type ResourceRelation } from "../resources/resource-references.js";
import { canonicalPath } from "../web/canonical-path.js";
import { type PolicyShadows, shadowsOf } from "./policy-preview-shadows.js";

/** The sample the preview simulates: a request and a subject (roles/authorities, or anonymous). */
export interface PreviewSample {
  /** Default: the first URL target's method (GET for ANY). */
  readonly method?: string | undefined;
  /** Default: the first URL target's pattern with a sample value in each variable and wildcard. */
  readonly path?: string | undefined;
  readonly roles?: readonly string[] | undefined;
  readonly authorities?: readonly string[] | undefined;
  readonly anonymous?: boolean | undefined;
  readonly zeroTrustAction?: ZeroTrustAction | undefined;
  readonly remoteAddress?: string | undefined;
}

/** One rule of the draft as the decision point reads it. */
export interface RulePreview {
  readonly name: string;
  /** The rule alone, converted for each target type the policy has (effect applied). */
  readonly expressions: Partial<Record<TargetType, string>>;
}

/** What the simulator answers for the sample with the draft among the loaded policies. */
export interface SimulationPreview {
  readonly method: string;
  readonly path: string;
  readonly subject: { readonly username: string; readonly authorities: readonly string[] } | null;
  readonly algorithm: CombiningAlgorithm;
  readonly decision: PolicyDecision;
  readonly trail: readonly PolicyTrailEntry[];
  /** True when the draft itself gave the answer. */
  readonly decidedByDraft: boolean;
}

/** A managed resource a draft target matches. */
export interface ResourceMatch {
  readonly id: string;
  readonly resourceType: string;
  readonly resourceIdentifier: string;
  readonly httpMethod: string | null;
  readonly friendlyName: string;
  readonly status: string;
  readonly relation: ResourceRelation;
}

/** The preview of a draft policy: its expressions, the simulator's answer and its impact. */
export interface PolicyPreview {
  readonly rules: readonly RulePreview[];
  /** The whole policy as one expression per target type it has (what the PDP compiles). */
  readonly expressions: Partial<Record<TargetType, string>>;
  /** Null when the draft has no URL target (the simulator judges URL requests). */
  readonly simulation: SimulationPreview | null;
  readonly impact: { readonly resources: readonly ResourceMatch[] } & PolicyShadows;
}

/** Options of the PolicyPreviewService. */
export interface PolicyPreviewServiceOptions {
  compiler: ExpressionCompiler;
  converter: PolicyExpressionConverter;
  prp: PolicyRetrievalPoint;
  resources: ManagedResourceRepository;
  clock: Clock;
  algorithm: CombiningAlgorithm;
  noMatchGranted: boolean;
  timeZone: string;
}

/** The id the draft carries in the simulation's trail. */
export const DRAFT_POLICY_ID = "draft";

/**
 * Previews a policy before it is saved, changing nothing: the converted expression of each rule and
 * of the whole policy (the converter the PDP uses), what the simulator answers for a sample with the
 * draft among the loaded URL policies (the same evaluation the simulator runs; the draft comes last
 * among equal priorities, as a new policy would), and the impact: which managed resources its targets
 * match, and which executable policies it shadows or is shadowed by. Throws what the PAP would:
 * VALIDATION_FAILED, POLICY_EXPRESSION_INVALID; and VALIDATION_FAILED (`sample.path`) for a sample
 * path the request firewall refuses, as the simulator does.
 */
export class PolicyPreviewService {
  constructor(private readonly o: PolicyPreviewServiceOptions) {}

  /** The preview of `input` (a policy as the PAP's create takes it) for `sample` (defaults from the draft's first URL target). */
  async preview(
    input: PolicyCreateInput | Record<string, unknown>,
    sample: PreviewSample = {},
  ): Promise<PolicyPreview> {
    const valid = parsePolicyCreate(input);
    checkPolicyExpressions(valid, this.o);
    const types = TARGET_TYPES.filter((t) => valid.targets.some((x) => x.targetType === t));
    const convert = (rules: PolicyCreate["rules"]) =>
      Object.fromEntries(types.map((t) => [t, this.o.converter.convert({ effect: valid.effect, rules }, t)]));
    const draft = this.asPolicy(valid);
    const stored = (await this.o.prp.findUrlPolicies()).filter((p) => p.id !== DRAFT_POLICY_ID);
    return {
      rules: valid.rules.map((rule) => ({ name: rule.name, expressions: convert([rule]) })),
      expressions: convert(valid.rules),
      simulation: this.simulate(draft, stored, sample),
      impact: {
        resources: await this.resourcesMatched(draft),
        ...shadowsOf(draft, stored, this.o.algorithm),
      },
    };
  }

  private asPolicy(valid: PolicyCreate): Policy {
    const now = this.o.clock.now();
    return {
      ...valid,
      id: DRAFT_POLICY_ID,
      approvalStatus: "NOT_REQUIRED",
      createdSeq: Number.MAX_SAFE_INTEGER,
      createdAt: now,
      updatedAt: now,
      version: 0,
    };
  }

  private simulate(
    draft: Policy,
    stored: readonly Policy[],
    sample: PreviewSample,
  ): SimulationPreview | null {
    const first = [...draft.targets]
      .sort((a, b) => a.targetOrder - b.targetOrder)
      .find((t) => t.targetType === "URL");
    if (!first) return null;
    const method = (sample.method ?? (first.httpMethod === "ANY" ? "GET" : first.httpMethod)).toUpperCase();
    const given = sample.path ?? samplePathOf(first.targetIdentifier);
    const path = canonicalPath(given);
    // Judged as the simulator judges it: a path the request firewall refuses never reaches a policy.
    if (!isPathAllowed(given) || !isPathAllowed(path)) {
      throw new PlatformError("VALIDATION_FAILED", "The sample path is refused by the request firewall", {
        details: { issues: [{ path: "sample.path", message: "the request firewall refuses this path" }] },
      });
    }
    const now = this.o.clock.now();
    const subject = sample.anonymous ? undefined : simulatedSubject(sample, now);
    const { set } = CompiledPolicySet.build([...stored, draft], {
      compiler: this.o.compiler,
      converter: this.o.converter,
      algorithm: this.o.algorithm,
    });
    const facts = {
      method,
      path,
      remoteAddress: sample.remoteAddress ?? "127.0.0.1",
      authentication: subject,
    };
    const ctx = {
      authentication: subject,
      remoteAddress: facts.remoteAddress,
      now,
      timeZone: this.o.timeZone,
      zeroTrustAction: sample.zeroTrustAction,
    };
    const { decision, trail, algorithm } = explainDecision(set, facts, ctx, this.o.noMatchGranted);
    return {
      method,
      path,
      subject: subject ? { username: subject.username, authorities: subject.authorities } : null,
      algorithm,
      decision,
      trail,
      decidedByDraft: decision.policyId === DRAFT_POLICY_ID,
    };
  }

  // References first, then partial, then broader; by identifier and method within each.
  private async resourcesMatched(draft: Policy): Promise<ResourceMatch[]> {
    const matches: ResourceMatch[] = [];
    for (const resource of await this.o.resources.findAll()) {
      const relations = draft.targets.map((t) => relationOf(t, resource)).filter((r) => r !== undefined);
      const relation = relations.find((r) => r === "references") ?? relations[0];
      if (!relation) continue;
      matches.push({
        id: resource.id,
        resourceType: resource.resourceType,
        resourceIdentifier: resource.resourceIdentifier,
        httpMethod: resource.httpMethod ?? null,
        friendlyName: resource.friendlyName,
        status: resource.status,
        relation,
      });
    }
    const rank = { references: 0, partial: 1, broader: 2 } as const;
    return matches.sort(
      (a, b) =>
        rank[a.relation] - rank[b.relation] ||
        a.resourceIdentifier.localeCompare(b.resourceIdentifier) ||
        (a.httpMethod ?? "").localeCompare(b.httpMethod ?? ""),
    );
  }
}

/**
 * A path a URL pattern matches, for the sample request: each `{variable}` becomes `1`, each `*`
 * (alone or inside a segment) `x`, and a `**` is dropped. The administrator can change it.
 */
export function samplePathOf(pattern: string): string {
  const path = pattern
    .replace(/\{[^}]*\}/g, "1")
    .replace(/\/\*\*$/, "")
    .replace(/\*\*/g, "x")
    .replace(/\*/g, "x");
  return path === "" ? "/" : path;
}
