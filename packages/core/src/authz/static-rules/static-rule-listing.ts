import type { SecurityFilterChain } from "../../identity/chain/security-filter-chain.js";
import { staticRulesOf } from "../../identity/http-security/authorization-filter.js";
import type { AuthorizationRule } from "../../identity/http-security/http-security.js";
import type { StaticRuleTag } from "../../identity/http-security/static-rule-tag.js";
import { anyRequest, plainMatcher, type RequestMatcher } from "../../web/request-matcher.js";
import { quoteString } from "../expression/expression-printer.js";
import { DYNAMIC_AUTHORIZATION_NAME } from "../pdp/dynamic-authorization.js";
import { POLICY_HTTP_METHODS } from "../policy/policy.js";
import { POLICY_LIMITS } from "../policy/policy-schema.js";

/** The parts of a built chain the listing reads (a FilterChainProxy's chains, in order). */
export type ListedChain = Pick<SecurityFilterChain, "id" | "matcher" | "filters">;

/** What a static rule would become as a policy: an ALLOW policy with one condition. */
export interface StaticRuleMapping {
  readonly effect: "ALLOW";
  /** `hasAnyRole(...)` for a role check, `hasAnyAuthority(...)` for an authority check. */
  readonly expression: string;
}

/**
 * One static rule of a chain, for one of its path patterns: a rule written
 * `requestMatchers("/a", "/b").hasRole("X")` is listed once per pattern. `key` (chain, method and
 * pattern) names it for import; rules whose matcher is no path pattern are keyed by position.
 */
export interface StaticRuleEntry {
  readonly key: string;
  readonly chain: string;
  /** 0-based place of the rule in its chain (static rules are evaluated top to bottom). */
  readonly position: number;
  /** The canonical path pattern, or null when the matcher is not one. */
  readonly pattern: string | null;
  /** Upper-case HTTP method or ANY. */
  readonly method: string;
  /** The matcher as it describes itself (`GET /admin/**`, `any request`). */
  readonly matcher: string;
  readonly rule: StaticRuleTag | { readonly kind: "unknown" };
  readonly importable: boolean;
  /** Why not, when it is not importable. */
  readonly reason?: string;
  /** The policy it maps to, when importable. */
  readonly mapping?: StaticRuleMapping;
}

/** A rule's path target: pattern and method, when it has one. */
interface PathTarget {
  readonly pattern: string;
  readonly method: string;
}

/**
 * The static rules of `chains` (a FilterChainProxy's, in their order), top to bottom in each chain,
 * with whether each can be imported as a policy: a role check maps to roles ALLOW
 * (`hasAnyRole(...)`), an authority check to permissions ALLOW (`hasAnyAuthority(...)`), as the
 * spec says; every other rule is listed with the reason it is not importable.
 */
export function listStaticRules(chains: readonly ListedChain[]): StaticRuleEntry[] {
  const entries: StaticRuleEntry[] = [];
  for (const chain of chains) {
    staticRulesOf(chain).forEach((rule, position) => {
      for (const target of targetsOf(rule, chain)) entries.push(entryOf(chain.id, position, rule, target));
    });
  }
  return entries;
}

/** The path targets of a rule: one per matcher it joins; anyRequest() stands for its chain's pattern. */
function targetsOf(rule: AuthorizationRule, chain: ListedChain): (PathTarget | RequestMatcher)[] {
  const matchers = rule.matchers ?? [rule.matcher];
  if (matchers.length === 0 || rule.matcher === anyRequest()) {
    const scope = pathTargetOf(chain.matcher);
    return [scope ?? (chain.matcher === anyRequest() ? { pattern: "/**", method: "ANY" } : rule.matcher)];
  }
  return matchers.map((m) => pathTargetOf(m) ?? m);
}

function pathTargetOf(matcher: RequestMatcher): PathTarget | undefined {
  const plain = plainMatcher(matcher);
  return plain ? { pattern: plain.pattern.source, method: plain.method ?? "ANY" } : undefined;
}

function entryOf(
  chain: string,
  position: number,
  rule: AuthorizationRule,
  target: PathTarget | RequestMatcher,
): StaticRuleEntry {
  const tag = rule.tag ?? { kind: "unknown" as const };
  if (!isPathTarget(target)) {
    return {
      key: `${chain}:#${position}`,
      chain,
      position,
      pattern: null,
      method: "ANY",
      matcher: (target as RequestMatcher).description,
      rule: tag,
      importable: false,
      reason: "its matcher is not a path pattern, which a policy target needs",
    };
  }
  const key = `${chain}:${target.method}:${target.pattern}`;
  const base = {
    key,
    chain,
    position,
    pattern: target.pattern,
    method: target.method,
    matcher: rule.matchers?.length ? `${target.method} ${target.pattern}` : rule.matcher.description,
    rule: tag,
  };
  const refusal = refusalOf(tag, target, key);
  if (refusal) return { ...base, importable: false, reason: refusal };
  const values = (tag as { values: readonly string[] }).values;
  const fn = tag.kind === "roles" ? "hasAnyRole" : "hasAnyAuthority";
  return {
    ...base,
    importable: true,
    mapping: { effect: "ALLOW", expression: `${fn}(${values.map(quoteString).join(", ")})` },
  };
}

function isPathTarget(target: PathTarget | RequestMatcher): target is PathTarget {
  return "method" in target && typeof target.pattern === "string";
}

const REASONS: Readonly<Record<string, string>> = {
  permitAll: "permitAll lets everyone in: only role and authority checks map to policies",
  denyAll: "denyAll refuses everyone: only role and authority checks map to policies",
  authenticated: "authenticated() asks for a sign-in, not a role or authority: it has no policy mapping",
  anonymous: "anonymous() asks for no sign-in: it has no policy mapping",
  unknown: "the rule was not built by the rule builder: what it checks is unknown",
};

function refusalOf(tag: StaticRuleEntry["rule"], target: PathTarget, key: string): string | undefined {
  if (tag.kind === "custom") {
    return tag.name === DYNAMIC_AUTHORIZATION_NAME
      ? "it hands the request to the policies (dynamicAuthorization): nothing to import"
      : `${tag.name}(...) is a custom check: only role and authority checks map to policies`;
  }
  if (tag.kind !== "roles" && tag.kind !== "authorities") return REASONS[tag.kind];
  if (!(POLICY_HTTP_METHODS as readonly string[]).includes(target.method)) {
    return `a policy target cannot take the method ${target.method}`;
  }
  if (key.length > POLICY_LIMITS.nameMaxLength) return "its pattern is too long for an imported policy's key";
  return undefined;
}
