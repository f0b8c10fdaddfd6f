import type { Policy } from "../../../packages/core/src/authz/policy/policy.js";
import type { BenchRequest } from "./bench-types.js";
import type { Workload } from "./workload.js";

/**
 * Which casbin model stands beside us. `rbac` (default) is casbin's canonical RBAC with keyMatch2 and
 * method, allow rules only (`some(where (p.eft == allow))`, so casbin stops at the first allow);
 * `rbac-with-deny` adds the DENY policies (`… && !some(where (p.eft == deny))`, a full scan unless a deny
 * hits); `priority` carries the priority column in our order (`priority(p.eft) || deny`, first match decides).
 */
export type CasbinVariant = "rbac" | "rbac-with-deny" | "priority";

/** The workload in casbin form: model text, `p` and `g` rows, and the subject of a request. */
export interface CasbinWorkload {
  readonly variant: CasbinVariant;
  readonly model: string;
  readonly policyRows: readonly (readonly string[])[];
  readonly groupingRows: readonly (readonly string[])[];
}

/** The casbin subject of an anonymous request; it holds only ANYONE. */
export const CASBIN_ANONYMOUS = "anonymous";

const MATCHER = 'g(r.sub, p.sub) && keyMatch2(r.obj, p.obj) && (r.act == p.act || p.act == "*")';

function modelText(variant: CasbinVariant): string {
  const policy = {
    rbac: "sub, obj, act",
    "rbac-with-deny": "sub, obj, act, eft",
    priority: "priority, sub, obj, act, eft",
  }[variant];
  const effect = {
    rbac: "some(where (p.eft == allow))",
    "rbac-with-deny": "some(where (p.eft == allow)) && !some(where (p.eft == deny))",
    priority: "priority(p.eft) || deny",
  }[variant];
  return [
    "[request_definition]",
    "r = sub, obj, act",
    "[policy_definition]",
    `p = ${policy}`,
    "[role_definition]",
    "g = _, _",
    "[policy_effect]",
    `e = ${effect}`,
    "[matchers]",
    `m = ${MATCHER}`,
    "",
  ].join("\n");
}

/** Ant → keyMatch2: `{id}`/`{id:regex}` → `:id`, `*` and `**` → `*` (keyMatch2 reads `/*` as `/.*`). */
export function toKeyMatch2(pattern: string): string {
  return pattern
    .replace(/\{([A-Za-z][\w-]*)(?::[^}]*)?\}/g, ":$1")
    .replace(/\*\*/g, "*")
    .replace(/\?/g, "*");
}

/**
 * The casbin subjects standing for a policy's conditions: the roles it names (hasRole, hasAnyRole,
 * hasAuthority, hasAnyAuthority, bare ROLE_X); else AUTHENTICATED for isAuthenticated(); else ANYONE.
 * Casbin has no expressions, so IP ranges and zero-trust checks are dropped: it is the speed peer,
 * not a second opinion.
 */
export function casbinSubjects(policy: Policy): string[] {
  const text = policy.rules.flatMap((r) => r.conditions.map((c) => c.expression)).join(" ");
  const roles = new Set<string>();
  for (const m of text.matchAll(/\bROLE_[A-Z_]+/g)) roles.add(m[0]);
  for (const m of text.matchAll(/has(?:Any)?Role\(([^)]*)\)/g)) {
    for (const arg of (m[1] ?? "").matchAll(/'([^']*)'/g)) {
      const r = arg[1] ?? "";
      roles.add(r.startsWith("ROLE_") ? r : `ROLE_${r}`);
    }
  }
  if (roles.size > 0) return [...roles];
  return /isAuthenticated\(\)/.test(text) ? ["AUTHENTICATED"] : ["ANYONE"];
}

/** Translates the executable URL policies (in evaluation order) and the users' roles. */
export function toCasbinWorkload(workload: Workload, variant: CasbinVariant): CasbinWorkload {
  const executable = workload.policies
    .filter((p) => p.isActive && (p.approvalStatus === "NOT_REQUIRED" || p.approvalStatus === "APPROVED"))
    .filter((p) => variant !== "rbac" || p.effect === "ALLOW")
    .sort((a, b) => a.priority - b.priority || a.createdSeq - b.createdSeq);
  const seen = new Set<string>();
  const policyRows: string[][] = [];
  for (const policy of executable) {
    for (const target of policy.targets) {
      if (target.targetType !== "URL") continue;
      const obj = toKeyMatch2(target.targetIdentifier);
      const act = target.httpMethod === "ANY" ? "*" : target.httpMethod;
      const eft = policy.effect === "ALLOW" ? "allow" : "deny";
      for (const sub of casbinSubjects(policy)) {
        const row =
          variant === "rbac"
            ? [sub, obj, act]
            : variant === "rbac-with-deny"
              ? [sub, obj, act, eft]
              : [String(policy.priority), sub, obj, act, eft];
        const key = row.join("\u0000");
        if (seen.has(key)) continue;
        seen.add(key);
        policyRows.push(row);
      }
    }
  }
  const groupingRows: string[][] = [
    ["AUTHENTICATED", "ANYONE"],
    [CASBIN_ANONYMOUS, "ANYONE"],
  ];
  for (const user of workload.users) {
    groupingRows.push([user.userId, "AUTHENTICATED"]);
    for (const authority of user.authentication.authorities) groupingRows.push([user.userId, authority]);
  }
  return { variant, model: modelText(variant), policyRows, groupingRows };
}

/** The casbin request for one of ours: (user id or `anonymous`, path, method). */
export function casbinRequest(request: BenchRequest): [string, string, string] {
  return [request.authentication?.userId ?? CASBIN_ANONYMOUS, request.path, request.method];
}
