import type { CombiningAlgorithm } from "../authz/pdp/combining-algorithm.js";
import { type CoverageTarget, covers } from "../authz/pdp/pattern-coverage.js";
import { comparePolicies, isExecutable, type Policy } from "../authz/policy/policy.js";
import { isPlatformError } from "../kernel/platform-error.js";
import { compilePathPattern } from "../web/path-pattern.js";

/** An executable policy whose URL targets overlap the draft's in evaluation order. */
export interface ShadowLink {
  readonly policyId: string;
  readonly name: string;
  readonly priority: number;
  readonly effect: Policy["effect"];
  /** The covered targets (of the draft for `shadowedBy`, of the other policy for `shadows`), `METHOD pattern`. */
  readonly targets: readonly string[];
  /** True when every URL target of the covered policy is covered: it can never decide. */
  readonly entirely: boolean;
}

/** Which policies a draft shadows and which shadow it (FIRST_APPLICABLE only). */
export interface PolicyShadows {
  readonly algorithm: CombiningAlgorithm;
  /** Earlier policies that match every request one of the draft's targets matches. */
  readonly shadowedBy: readonly ShadowLink[];
  /** Later policies one of whose targets the draft matches every request of. */
  readonly shadows: readonly ShadowLink[];
}

interface Covered {
  readonly text: string;
  readonly target: CoverageTarget;
}

function urlTargets(policy: Policy): Covered[] {
  const out: Covered[] = [];
  for (const t of policy.targets) {
    if (t.targetType !== "URL") continue;
    try {
      out.push({
        text: `${t.httpMethod} ${t.targetIdentifier}`,
        target: { pattern: compilePathPattern(t.targetIdentifier, "policy"), method: t.httpMethod },
      });
    } catch (error) {
      // A stored target the compiler now refuses cannot shadow anything the PDP would load.
      if (!isPlatformError(error)) throw error;
    }
  }
  return out;
}

// The targets of `lower` that some target of `upper` covers, and whether that is all of them.
function coverage(upper: readonly Covered[], lower: readonly Covered[]): { texts: string[]; all: boolean } {
  const texts = lower.filter((b) => upper.some((a) => covers(a.target, b.target))).map((b) => b.text);
  return { texts, all: lower.length > 0 && texts.length === lower.length };
}

/**
 * Shadows between a draft and the stored policies under FIRST_APPLICABLE, where the first policy
 * whose target matches decides: a policy evaluated before the draft whose targets cover one of the
 * draft's shadows it there (`entirely` when it covers all of them: the draft would never decide), and
 * the draft shadows a later policy whose targets it covers. Evaluation order is priority, then
 * creation (the draft is created last). Coverage is `covers`' (conservative: a shadow reported is
 * real). Only executable URL policies count. Under the other algorithms every matching policy is
 * considered, so nothing is shadowed and both lists are empty.
 */
export function shadowsOf(
  draft: Policy,
  stored: readonly Policy[],
  algorithm: CombiningAlgorithm,
): PolicyShadows {
  const shadowedBy: ShadowLink[] = [];
  const shadows: ShadowLink[] = [];
  if (algorithm !== "FIRST_APPLICABLE") return { algorithm, shadowedBy, shadows };
  const mine = urlTargets(draft);
  for (const other of [...stored].filter(isExecutable).sort(comparePolicies)) {
    const theirs = urlTargets(other);
    const before = comparePolicies(other, draft) < 0;
    const { texts, all } = before ? coverage(theirs, mine) : coverage(mine, theirs);
    if (texts.length === 0) continue;
    const link = {
      policyId: other.id,
      name: other.name,
      priority: other.priority,
      effect: other.effect,
      targets: texts,
      entirely: all,
    };
    (before ? shadowedBy : shadows).push(link);
  }
  return { algorithm, shadowedBy, shadows };
}
