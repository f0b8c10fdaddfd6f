import type {
  Policy,
  PolicyHttpMethod,
  PolicySource,
  PolicyTarget,
} from "../../../packages/core/src/authz/policy/policy.js";
import type { SeededRandom } from "./seeded-random.js";
import { allowRules, denyRules } from "./workload-conditions.js";

const NOUNS = (
  "orders invoices customers products accounts payments shipments teams projects tickets reports documents " +
  "contracts suppliers warehouses inventories campaigns leads opportunities quotes subscriptions plans coupons " +
  "refunds returns employees departments assets devices licenses audits incidents alerts metrics dashboards " +
  "notes tasks events calendars messages notifications webhooks integrations files images videos comments " +
  "reviews ratings categories tags regions stores carts wishlists deliveries routes vehicles drivers"
).split(" ");

/** Sub-resource names under `/{id}/`; never `export` or `audit`, which have patterns of their own. */
export const SUB_RESOURCES: readonly string[] = Object.freeze(
  "items notes history attachments comments status approvals lines members versions".split(" "),
);

/** `orders`, …, then `orders-2`, `invoices-2`, … when the vocabulary runs out. */
export function resourceName(index: number): string {
  const noun = NOUNS[index % NOUNS.length] ?? "things";
  const round = Math.floor(index / NOUNS.length);
  return round === 0 ? noun : `${noun}-${round + 1}`;
}

/** Names that no policy uses, for requests that should match nothing. */
export function unknownResourceName(rng: SeededRandom): string {
  return `${rng.pick(NOUNS)}-legacy-${rng.int(1, 999)}`;
}

interface Draft {
  readonly kind: string;
  readonly effect: "ALLOW" | "DENY";
  readonly priority: number;
  readonly targets: ReadonlyArray<readonly [string, PolicyHttpMethod]>;
  readonly rules: readonly (readonly string[])[];
}

type Kind = (res: string, rng: SeededRandom) => Draft;

const COMMON_PRIORITIES = [10, 20, 25, 50, 75, 90, 100, 120, 150, 200, 250, 300];
const specific = (rng: SeededRandom): number =>
  rng.chance(0.75) ? rng.pick(COMMON_PRIORITIES) : rng.int(1, 300);
const api = (res: string): string => `/api/v1/${res}`;
const allowOrDeny = (rng: SeededRandom, allow: number, res: string) =>
  rng.chance(allow)
    ? { effect: "ALLOW" as const, rules: allowRules(rng, res) }
    : { effect: "DENY" as const, rules: denyRules(rng) };

const KINDS: Record<string, Kind> = {
  list: (res, rng) => ({
    kind: "list",
    priority: specific(rng),
    targets: rng.chance(0.1)
      ? [
          [api(res), "GET"],
          [api(res), "HEAD"],
        ]
      : [[api(res), "GET"]],
    ...allowOrDeny(rng, 0.9, res),
  }),
  create: (res, rng) => ({
    kind: "create",
    priority: specific(rng),
    targets: [[api(res), "POST"]],
    ...allowOrDeny(rng, 0.85, res),
  }),
  read: (res, rng) => ({
    kind: "read",
    priority: specific(rng),
    targets: [[`${api(res)}/{id}`, "GET"]],
    ...allowOrDeny(rng, 0.9, res),
  }),
  update: (res, rng) => ({
    kind: "update",
    priority: specific(rng),
    targets: rng.chance(0.3)
      ? [
          [`${api(res)}/{id}`, "PUT"],
          [`${api(res)}/{id}`, "PATCH"],
        ]
      : [[`${api(res)}/{id}`, "PUT"]],
    ...allowOrDeny(rng, 0.85, res),
  }),
  delete: (res, rng) => ({
    kind: "delete",
    priority: specific(rng),
    targets: [[`${api(res)}/{id}`, "DELETE"]],
    ...allowOrDeny(rng, 0.5, res),
  }),
  sub: (res, rng) => ({
    kind: "sub",
    priority: specific(rng),
    targets: [[`${api(res)}/{id}/${rng.pick(SUB_RESOURCES)}`, rng.chance(0.7) ? "GET" : "ANY"]],
    ...allowOrDeny(rng, 0.85, res),
  }),
  export: (res, rng) => ({
    kind: "export",
    priority: specific(rng),
    targets: [[`${api(res)}/*/export`, "GET"]],
    ...allowOrDeny(rng, 0.9, res),
  }),
  catchAll: (res, rng) => ({
    kind: "catch-all",
    priority: rng.pick([400, 450, 475, 500]),
    targets: [[`${api(res)}/**`, "ANY"]],
    ...rng.weighted([
      [{ effect: "DENY" as const, rules: [] }, 55],
      [{ effect: "ALLOW" as const, rules: [["isAuthenticated()"]] }, 35],
      [{ effect: "DENY" as const, rules: [["!isAuthenticated()"]] }, 10],
    ]),
  }),
  adminRes: (res, rng) => ({
    kind: "admin-resource",
    priority: rng.int(20, 300),
    targets: [[`/admin/${res}/**`, "ANY"]],
    ...allowOrDeny(rng, 0.8, res),
  }),
  ztDeny: (res, rng) => ({
    kind: "zero-trust-deny",
    effect: "DENY",
    priority: rng.int(1, 60),
    targets: [[`${api(res)}/{id}`, rng.pick(["DELETE", "PUT"] as const)]],
    rules: [[rng.chance(0.7) ? "#ai.isBlocked()" : "#ai.hasActionIn('BLOCK','ESCALATE')"]],
  }),
  readRegex: (res, rng) => ({
    kind: "read-numeric",
    priority: specific(rng),
    targets: [[`${api(res)}/{id:\\d+}`, "GET"]],
    ...allowOrDeny(rng, 0.9, res),
  }),
  middleAudit: (res, rng) => ({
    kind: "audit-trail",
    priority: specific(rng),
    targets: [[`${api(res)}/**/audit`, "GET"]],
    effect: "ALLOW",
    rules: [["hasRole('AUDITOR')"]],
  }),
  version: (res, rng) => ({
    kind: "versioned",
    priority: specific(rng),
    targets: [[`/api/v?/${res}/{id}/status`, "GET"]],
    ...allowOrDeny(rng, 0.9, res),
  }),
};

const BASE_KINDS = ["list", "create", "read", "update", "delete", "sub", "export", "catchAll", "adminRes"];
const EXTRA_KINDS = ["ztDeny", "readRegex", "middleAudit", "version", "sub", "sub"];

/** The global `/admin/**` policies that shadow every `/admin/<res>/**` under FIRST_APPLICABLE (a priority tie on GET). */
const GLOBALS: readonly Draft[] = [
  {
    kind: "admin-read",
    effect: "ALLOW",
    priority: 5,
    targets: [["/admin/**", "GET"]],
    rules: [["hasAnyAuthority('ROLE_ADMIN','ROLE_AUDITOR')"]],
  },
  {
    kind: "admin",
    effect: "ALLOW",
    priority: 5,
    targets: [["/admin/**", "ANY"]],
    rules: [["hasRole('ADMIN')"]],
  },
];

/** How many resources N policies spread over: about N/6 (inside the issue's N/8..N/4). */
export function resourceCountFor(policyCount: number): number {
  return Math.max(2, Math.round(policyCount / 6));
}

/** N policies (`p-<n>`, createdSeq n) over `resourceCountFor(N)` resources, returned in shuffled order. */
export function generatePolicies(
  policyCount: number,
  rng: SeededRandom,
): { policies: Policy[]; resources: string[] } {
  const resources = Array.from({ length: resourceCountFor(policyCount) }, (_, i) => resourceName(i));
  const plans = resources.map((res) => ({
    res,
    kinds: [...rng.shuffle(BASE_KINDS), ...rng.shuffle(EXTRA_KINDS)],
  }));
  const drafts: Draft[] = GLOBALS.slice(0, policyCount);
  for (let round = 0; drafts.length < policyCount; round++) {
    for (const plan of plans) {
      if (drafts.length >= policyCount) break;
      const kind = KINDS[plan.kinds[round % plan.kinds.length] ?? "read"] ?? KINDS.read;
      if (kind) drafts.push(kind(plan.res, rng));
    }
  }
  const policies = drafts.map((draft, n) => finish(draft, n, rng));
  return { policies: rng.shuffle(policies), resources };
}

const EPOCH = Date.UTC(2026, 0, 5, 9, 0, 0);

function finish(draft: Draft, n: number, rng: SeededRandom): Policy {
  const source = rng.weighted<PolicySource>([
    ["MANUAL", 85],
    ["AI_GENERATED", 7],
    ["AI_EVOLVED", 3],
    ["IMPORTED", 5],
  ]);
  const ai = source === "AI_GENERATED" || source === "AI_EVOLVED";
  const first = draft.targets[0]?.[0] ?? "/";
  const methodOnly = rng.chance(0.003);
  const targets: PolicyTarget[] = methodOnly
    ? [
        {
          targetType: "METHOD",
          targetIdentifier: `com.example.api.${className(first)}.delete(Long)`,
          httpMethod: "ANY",
          targetOrder: 0,
          sourceType: "RESOURCE",
        },
      ]
    : draft.targets.map(([targetIdentifier, httpMethod], targetOrder) => ({
        targetType: "URL",
        targetIdentifier,
        httpMethod,
        targetOrder,
        sourceType: draft.kind.startsWith("admin") ? "MANUAL" : "RESOURCE",
      }));
  const createdAt = EPOCH + n * 60_000;
  const version = rng.int(1, 3);
  return {
    id: `p-${n}`,
    name: `${draft.effect === "ALLOW" ? "Allow" : "Deny"} ${draft.kind} ${first}`,
    description: `${draft.effect} ${draft.targets.map(([p, m]) => `${m} ${p}`).join(", ")} (${draft.kind}, bench workload)`,
    effect: draft.effect,
    priority: draft.priority,
    targets,
    rules: draft.rules.map((conditions, i) => ({
      name: `${draft.kind}-rule-${i + 1}`,
      conditions: conditions.map((expression) => ({ expression })),
    })),
    source,
    approvalStatus: ai
      ? rng.weighted([
          ["APPROVED", 70],
          ["PENDING", 20],
          ["REJECTED", 10],
        ] as const)
      : "NOT_REQUIRED",
    isActive: !rng.chance(0.03),
    confidenceScore: ai ? Math.round((0.55 + rng.next() * 0.44) * 100) / 100 : null,
    aiModel: ai ? "policy-llm-2.1" : null,
    createdSeq: n,
    createdAt,
    updatedAt: createdAt + (version - 1) * 3_600_000,
    version,
  };
}

function className(pattern: string): string {
  const res =
    pattern.split("/").find((s) => s !== "" && s !== "api" && s !== "v1" && s !== "admin") ?? "root";
  const words = res.split("-").map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return `${words.join("")}Service`;
}
