import { staticRulesOf } from "../../identity/http-security/authorization-filter.js";
import type { AuthorizationRule } from "../../identity/http-security/http-security.js";
import { compilePathPattern } from "../../web/path-pattern.js";
import { anyRequest, plainMatcher, type RequestMatcher } from "../../web/request-matcher.js";
import { DYNAMIC_AUTHORIZATION_NAME } from "../pdp/dynamic-authorization.js";
import { type CoverageTarget, covers } from "../pdp/pattern-coverage.js";
import type { Policy, PolicyTarget } from "../policy/policy.js";
import type { ListedChain } from "./static-rule-listing.js";

/** A URL target of a policy that a static rule shadows, and that rule. */
export interface StaticShadow {
  readonly target: Pick<PolicyTarget, "targetIdentifier" | "httpMethod" | "targetOrder">;
  /** The chain whose rule decides the target's requests before any policy is asked. */
  readonly chain: string;
  /** The rule's 0-based place in the chain. */
  readonly position: number;
  /** The rule's matcher as it describes itself. */
  readonly matcher: string;
  readonly rule: NonNullable<AuthorizationRule["tag"]> | { readonly kind: "unknown" };
}

/**
 * The URL targets of `policy` that a static rule shadows: the first chain (in `chains`' order) whose
 * security matcher certainly takes every request of the target serves them, and its first rule
 * that certainly matches them all decides; unless that rule is the hand-over to the policies
 * (`dynamicAuthorization()`), the policy is never asked for them (a static rule always wins).
 * Conservative like `covers`: a shadow reported is real; partial overlaps are not reported. An
 * empty answer means no target is (certainly) shadowed.
 */
export function staticShadowOf(
  policy: Pick<Policy, "targets">,
  chains: readonly ListedChain[],
): StaticShadow[] {
  const shadows: StaticShadow[] = [];
  for (const target of policy.targets) {
    if (target.targetType !== "URL") continue;
    let compiled: CoverageTarget;
    try {
      compiled = {
        pattern: compilePathPattern(target.targetIdentifier, "policy"),
        method: target.httpMethod,
      };
    } catch {
      continue; // A stored target the PAP would refuse today: not ours to judge here.
    }
    const chain = chains.find((c) => takesAll(c.matcher, compiled));
    if (!chain) continue;
    const rules = staticRulesOf(chain);
    const position = rules.findIndex((rule) =>
      (rule.matchers?.length ? rule.matchers : [rule.matcher]).some((m) => takesAll(m, compiled)),
    );
    const rule = rules[position];
    if (!rule) continue;
    const tag = rule.tag ?? { kind: "unknown" as const };
    if (tag.kind === "custom" && tag.name === DYNAMIC_AUTHORIZATION_NAME) continue;
    shadows.push({
      target: {
        targetIdentifier: target.targetIdentifier,
        httpMethod: target.httpMethod,
        targetOrder: target.targetOrder,
      },
      chain: chain.id,
      position,
      matcher: rule.matcher.description,
      rule: tag,
    });
  }
  return shadows;
}

/** True when `matcher` certainly matches every request of `target` (anyRequest, or a covering path pattern). */
function takesAll(matcher: RequestMatcher, target: CoverageTarget): boolean {
  if (matcher === anyRequest()) return true;
  const plain = plainMatcher(matcher);
  return plain !== undefined && covers({ pattern: plain.pattern, method: plain.method ?? "ANY" }, target);
}
