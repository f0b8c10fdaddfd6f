import type { InjectionToken } from "tsyringe";
import type { Authentication } from "../../identity/authentication/authentication.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Policy, PolicyHttpMethod } from "../policy/policy.js";
import type { PolicyAdministrationService } from "../policy/policy-administration-service.js";
import type { PolicyRepository } from "../policy/policy-repository.js";
import {
  type ListedChain,
  listStaticRules,
  type StaticRuleEntry,
  type StaticRuleMapping,
} from "./static-rule-listing.js";
import { type StaticShadow, staticShadowOf } from "./static-rule-shadow.js";

/** A listed static rule with what the policy store knows of it. */
export interface StaticRuleView extends StaticRuleEntry {
  /** The IMPORTED policy made from it, if one exists. */
  readonly importedAs: string | null;
  /** Stored policies whose URL targets this rule shadows (it decides first, they are never asked). */
  readonly shadows: readonly { readonly policyId: string; readonly name: string }[];
}

/** What an import did, key by key. */
export interface StaticRuleImport {
  readonly created: readonly { readonly key: string; readonly policyId: string }[];
  /** Already imported: the existing policy (importing twice creates nothing). */
  readonly existing: readonly { readonly key: string; readonly policyId: string }[];
  readonly refused: readonly { readonly key: string; readonly reason: string }[];
}

/** Options of the StaticRuleService. */
export interface StaticRuleServiceOptions {
  /** The platform's built chains, in order (its FilterChainProxy's), read at each call. */
  chains: () => readonly ListedChain[];
  service: PolicyAdministrationService;
  /** Read only: which policies exist (imported ones, shadowed ones). */
  repository: Pick<PolicyRepository, "findAll">;
  audit: AuditSink;
}

/** The static rules of this platform's chains as the Policy Center sees them (see ChainStaticRuleService). */
export interface StaticRuleService {
  /** Every static rule of the platform's chains, with its import state and shadows. */
  list(actor: Authentication): Promise<StaticRuleView[]>;
  /** Imports the importable rules named by `keys` ("all": every importable one); audited. */
  import(keys: readonly string[] | "all", actor: Authentication): Promise<StaticRuleImport>;
  shadowOf(policy: Pick<Policy, "targets">): StaticShadow[];
}

/**
 * The StaticRuleService over the platform's built chains: listed with whether
 * each maps to a policy, which policies each shadows and what it was imported as; imported on
 * request as IMPORTED policies (NOT_REQUIRED) through the PAP, one per rule key (chain, method,
 * pattern), idempotently: the key is the imported policy's rule name, and a key already imported
 * is answered with its policy. Administrators only (the PAP's check, audited when refused).
 */
export class ChainStaticRuleService implements StaticRuleService {
  constructor(private readonly o: StaticRuleServiceOptions) {}

  async list(actor: Authentication): Promise<StaticRuleView[]> {
    this.o.service.assertAdmin(actor, "static-rules.list");
    const chains = this.o.chains();
    const policies = await this.o.repository.findAll({});
    const shadowed = new Map<string, { policyId: string; name: string }[]>();
    for (const policy of policies) {
      for (const shadow of staticShadowOf(policy, chains)) {
        const at = `${shadow.chain}#${shadow.position}`;
        const list = shadowed.get(at) ?? [];
        if (!list.some((p) => p.policyId === policy.id))
          list.push({ policyId: policy.id, name: policy.name });
        shadowed.set(at, list);
      }
    }
    const imported = importedPolicies(policies);
    return listStaticRules(chains).map((entry) => ({
      ...entry,
      importedAs: imported.get(entry.key) ?? null,
      shadows: shadowed.get(`${entry.chain}#${entry.position}`) ?? [],
    }));
  }

  async import(keys: readonly string[] | "all", actor: Authentication): Promise<StaticRuleImport> {
    this.o.service.assertAdmin(actor, "static-rules.import");
    const entries = listStaticRules(this.o.chains());
    const byKey = new Map(entries.map((e) => [e.key, e]));
    const wanted =
      keys === "all" ? entries.filter((e) => e.importable).map((e) => e.key) : [...new Set(keys)];
    const imported = importedPolicies(await this.o.repository.findAll({ source: "IMPORTED" }));
    const result = { created: [], existing: [], refused: [] } as {
      created: { key: string; policyId: string }[];
      existing: { key: string; policyId: string }[];
      refused: { key: string; reason: string }[];
    };
    for (const key of wanted) {
      const entry = byKey.get(key);
      const existing = imported.get(key);
      if (!entry) result.refused.push({ key, reason: "no static rule of this platform has this key" });
      else if (!entry.mapping || entry.pattern === null)
        result.refused.push({ key, reason: entry.reason ?? "not importable" });
      else if (existing) result.existing.push({ key, policyId: existing });
      else {
        const policy = await this.o.service.create(policyOf(entry, entry.mapping, entry.pattern), actor);
        imported.set(key, policy.id);
        result.created.push({ key, policyId: policy.id });
      }
    }
    this.o.audit.record({
      type: "policy.static-rules.imported",
      outcome: "success",
      principal: actor.username,
      data: {
        created: result.created.map((c) => c.policyId),
        existing: result.existing.length,
        refused: result.refused.length,
      },
    });
    return result;
  }

  shadowOf(policy: Pick<Policy, "targets">): StaticShadow[] {
    return staticShadowOf(policy, this.o.chains());
  }
}

/** DI token of the StaticRuleService (registered by the authorization plugin). */
export const StaticRuleService: InjectionToken<StaticRuleService> = Symbol.for(
  "platform.authz.StaticRuleService",
);

/** IMPORTED policies by the static-rule key their first rule is named after. */
function importedPolicies(policies: readonly Policy[]): Map<string, string> {
  const byKey = new Map<string, string>();
  for (const p of policies) {
    if (p.source !== "IMPORTED") continue;
    for (const rule of p.rules) if (!byKey.has(rule.name)) byKey.set(rule.name, p.id);
  }
  return byKey;
}

function policyOf(entry: StaticRuleEntry, mapping: StaticRuleMapping, pattern: string) {
  const label = `${entry.method} ${pattern}`;
  const name = `Static rule ${label}`;
  return {
    name: name.length > 200 ? `${name.slice(0, 199)}…` : name,
    description:
      `Imported from the static rule ${entry.matcher} of chain ${entry.chain} (${mapping.expression}). ` +
      "A static rule is evaluated first and always wins: this policy is shadowed until that rule is removed from code.",
    effect: mapping.effect,
    targets: [
      { targetType: "URL" as const, targetIdentifier: pattern, httpMethod: entry.method as PolicyHttpMethod },
    ],
    rules: [{ name: entry.key, conditions: [{ expression: mapping.expression }] }],
    source: "IMPORTED" as const,
  };
}
