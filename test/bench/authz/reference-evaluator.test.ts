import { describe, expect, it } from "vitest";
import type { Authentication } from "../../../packages/core/src/identity/authentication/authentication.js";
import type { Policy, PolicyHttpMethod } from "../../../packages/core/src/authz/policy/policy.js";
import type { ZeroTrustAction } from "../../../packages/core/src/authz/zerotrust/zero-trust-action.js";
import type { CombiningAlgorithmName } from "./bench-types.js";
import { type ReferenceDecision, ReferenceEvaluator } from "./reference-evaluator.js";

interface Spec {
  id: string;
  effect?: "ALLOW" | "DENY";
  priority?: number;
  seq?: number;
  targets: Array<[string, PolicyHttpMethod]>;
  /** Each inner array is one rule's conditions. */
  rules?: string[][];
  isActive?: boolean;
  approvalStatus?: Policy["approvalStatus"];
}

let nextSeq = 0;
function policy(spec: Spec): Policy {
  const seq = spec.seq ?? nextSeq++;
  return {
    id: spec.id,
    name: spec.id,
    description: "",
    effect: spec.effect ?? "ALLOW",
    priority: spec.priority ?? 100,
    targets: spec.targets.map(([targetIdentifier, httpMethod], targetOrder) => ({
      targetType: "URL",
      targetIdentifier,
      httpMethod,
      targetOrder,
      sourceType: "MANUAL",
    })),
    rules: (spec.rules ?? []).map((conditions, i) => ({
      name: `r${i}`,
      conditions: conditions.map((expression) => ({ expression })),
    })),
    source: "MANUAL",
    approvalStatus: spec.approvalStatus ?? "NOT_REQUIRED",
    isActive: spec.isActive ?? true,
    confidenceScore: null,
    aiModel: null,
    createdSeq: seq,
    createdAt: 0,
    updatedAt: 0,
    version: 1,
  };
}

function user(...authorities: string[]): Authentication {
  return { userId: "u-1", username: "u1", authorities, method: "form", authenticatedAt: 0, factors: [] };
}

function decide(
  policies: Policy[],
  algorithm: CombiningAlgorithmName,
  request: {
    auth?: Authentication | undefined;
    method?: string;
    path: string;
    ip?: string;
    action?: ZeroTrustAction | undefined;
  },
): ReferenceDecision {
  return new ReferenceEvaluator(policies, algorithm).decide({
    authentication: request.auth,
    method: request.method ?? "GET",
    path: request.path,
    remoteAddress: request.ip ?? "192.168.1.1",
    zeroTrustAction: request.action,
  });
}

const FA = "FIRST_APPLICABLE";

describe("reference evaluator, FIRST_APPLICABLE", () => {
  it("allows an unmatched request without a policy", () => {
    const ps = [policy({ id: "p", targets: [["/api/**", "ANY"]], rules: [["hasRole('ADMIN')"]] })];
    expect(decide(ps, FA, { path: "/static/app.js" })).toEqual({ granted: true, policyId: undefined });
  });

  it("lets the first matching policy decide, by ascending numeric priority then createdSeq", () => {
    const ps = [
      policy({ id: "p-100", priority: 100, seq: 0, targets: [["/api/**", "ANY"]], rules: [["denyAll"]] }),
      policy({ id: "p-9b", priority: 9, seq: 2, targets: [["/api/**", "ANY"]] }),
      policy({ id: "p-9a", priority: 9, seq: 1, targets: [["/api/**", "ANY"]], effect: "DENY" }),
    ];
    // "100" < "9" as strings; numerically 9 comes first, and seq 1 before seq 2.
    expect(decide(ps, FA, { path: "/api/x", auth: user() })).toEqual({ granted: false, policyId: "p-9a" });
  });

  it("decides with an ALLOW policy's condition: a false condition denies (no fall-through)", () => {
    const ps = [
      policy({ id: "admin", priority: 1, targets: [["/admin/**", "ANY"]], rules: [["hasRole('ADMIN')"]] }),
      policy({ id: "res", priority: 2, targets: [["/admin/users/**", "ANY"]], rules: [["hasRole('USER')"]] }),
    ];
    expect(decide(ps, FA, { path: "/admin/users/7", auth: user("ROLE_USER") })).toEqual({
      granted: false,
      policyId: "admin",
    });
    expect(decide(ps, FA, { path: "/admin/users/7", auth: user("ROLE_ADMIN") })).toEqual({
      granted: true,
      policyId: "admin",
    });
  });

  it("negates a DENY policy's condition: a false condition grants, and the policy still decides", () => {
    const ps = [
      policy({
        id: "deny",
        priority: 1,
        effect: "DENY",
        targets: [["/api/**", "ANY"]],
        rules: [["#ai.isBlocked()"]],
      }),
      policy({ id: "never", priority: 2, targets: [["/api/**", "ANY"]], rules: [["denyAll"]] }),
    ];
    expect(decide(ps, FA, { path: "/api/a", auth: user(), action: "BLOCK" })).toEqual({
      granted: false,
      policyId: "deny",
    });
    expect(decide(ps, FA, { path: "/api/a", auth: user(), action: "ALLOW" })).toEqual({
      granted: true,
      policyId: "deny",
    });
    expect(decide(ps, FA, { path: "/api/a", auth: user() })).toEqual({ granted: true, policyId: "deny" });
  });

  it("converts no conditions to permitAll (ALLOW) and denyAll (DENY)", () => {
    const allow = [policy({ id: "a", targets: [["/x", "GET"]] })];
    const deny = [policy({ id: "d", effect: "DENY", targets: [["/x", "GET"]], rules: [[]] })];
    expect(decide(allow, FA, { path: "/x" })).toEqual({ granted: true, policyId: "a" });
    expect(decide(deny, FA, { path: "/x", auth: user("ROLE_ADMIN") })).toEqual({
      granted: false,
      policyId: "d",
    });
  });

  it("reads bare authorities, several plain ones as any-of and mixed ones joined with or, across rules", () => {
    const ps = [
      policy({
        id: "p",
        targets: [["/x", "ANY"]],
        rules: [["ROLE_A", "ROLE_B"], ["hasIpAddress('10.0.0.0/8')"]],
      }),
    ];
    expect(decide(ps, FA, { path: "/x", auth: user("ROLE_B") }).granted).toBe(true);
    expect(decide(ps, FA, { path: "/x", auth: user("ROLE_C") }).granted).toBe(false);
    expect(decide(ps, FA, { path: "/x", auth: user("ROLE_C"), ip: "10.2.3.4" }).granted).toBe(true);
    expect(decide(ps, FA, { path: "/x", ip: "::ffff:10.2.3.4" }).granted).toBe(true);
    const denyMixed = [
      policy({
        id: "d",
        effect: "DENY",
        targets: [["/x", "ANY"]],
        rules: [["ROLE_GUEST", "!isAuthenticated()"]],
      }),
    ];
    expect(decide(denyMixed, FA, { path: "/x" }).granted).toBe(false);
    expect(decide(denyMixed, FA, { path: "/x", auth: user("ROLE_GUEST") }).granted).toBe(false);
    expect(decide(denyMixed, FA, { path: "/x", auth: user("ROLE_USER") }).granted).toBe(true);
  });

  it("strips hasPermission conditions; nothing left means denyAll (ALLOW) or permitAll (DENY)", () => {
    const mixed = [
      policy({ id: "m", targets: [["/x", "ANY"]], rules: [["hasPermission('x','read')", "hasRole('A')"]] }),
    ];
    expect(decide(mixed, FA, { path: "/x", auth: user("ROLE_A") }).granted).toBe(true);
    expect(decide(mixed, FA, { path: "/x", auth: user("ROLE_B") }).granted).toBe(false);
    const onlyAllow = [policy({ id: "o", targets: [["/x", "ANY"]], rules: [["hasPermission('x','read')"]] })];
    expect(decide(onlyAllow, FA, { path: "/x", auth: user("ROLE_ADMIN") })).toEqual({
      granted: false,
      policyId: "o",
    });
    const onlyDeny = [
      policy({ id: "o", effect: "DENY", targets: [["/x", "ANY"]], rules: [["hasPermission('x','delete')"]] }),
    ];
    expect(decide(onlyDeny, FA, { path: "/x" })).toEqual({ granted: true, policyId: "o" });
  });

  it("matches the method unless the target says ANY; HEAD is not GET", () => {
    const ps = [policy({ id: "g", targets: [["/x/{id}", "GET"]], rules: [["denyAll"]] })];
    expect(decide(ps, FA, { path: "/x/1", method: "GET" }).policyId).toBe("g");
    expect(decide(ps, FA, { path: "/x/1", method: "get" }).policyId).toBe("g");
    expect(decide(ps, FA, { path: "/x/1", method: "HEAD" }).policyId).toBeUndefined();
    expect(decide(ps, FA, { path: "/x/1", method: "PUT" }).policyId).toBeUndefined();
  });

  it("matches any of a policy's URL targets and ignores METHOD targets", () => {
    const two = policy({
      id: "two",
      targets: [
        ["/a", "PUT"],
        ["/a", "PATCH"],
      ],
      rules: [["denyAll"]],
    });
    const method: Policy = {
      ...policy({ id: "m", priority: 1, targets: [], rules: [["denyAll"]] }),
      targets: [
        {
          targetType: "METHOD",
          targetIdentifier: "/a",
          httpMethod: "ANY",
          targetOrder: 0,
          sourceType: "RESOURCE",
        },
      ],
    };
    expect(decide([two, method], FA, { path: "/a", method: "PATCH" }).policyId).toBe("two");
    expect(decide([method], FA, { path: "/a" })).toEqual({ granted: true, policyId: undefined });
  });

  it("skips inactive, PENDING and REJECTED policies and keeps APPROVED ones", () => {
    const ps = [
      policy({ id: "off", priority: 1, isActive: false, targets: [["/x", "ANY"]], rules: [["denyAll"]] }),
      policy({
        id: "pend",
        priority: 2,
        approvalStatus: "PENDING",
        targets: [["/x", "ANY"]],
        rules: [["denyAll"]],
      }),
      policy({
        id: "rej",
        priority: 3,
        approvalStatus: "REJECTED",
        targets: [["/x", "ANY"]],
        rules: [["denyAll"]],
      }),
      policy({
        id: "ok",
        priority: 4,
        approvalStatus: "APPROVED",
        targets: [["/x", "ANY"]],
        rules: [["denyAll"]],
      }),
    ];
    expect(decide(ps, FA, { path: "/x" })).toEqual({ granted: false, policyId: "ok" });
  });
});

describe("reference evaluator, XACML algorithms", () => {
  // p1 permits users, p2 denies guests, p3 permits admins; all on /r/**.
  const ps = [
    policy({ id: "p1", priority: 1, targets: [["/r/**", "ANY"]], rules: [["hasRole('USER')"]] }),
    policy({
      id: "p2",
      priority: 2,
      effect: "DENY",
      targets: [["/r/**", "ANY"]],
      rules: [["hasRole('GUEST')"]],
    }),
    policy({ id: "p3", priority: 3, targets: [["/r/**", "ANY"]], rules: [["hasRole('ADMIN')"]] }),
  ];
  const req = (...authorities: string[]) => ({ path: "/r/1", auth: user(...authorities) });

  it("DENY_OVERRIDES: any Deny wins, else the first Permit, else allowed", () => {
    expect(decide(ps, "DENY_OVERRIDES", req("ROLE_USER", "ROLE_GUEST"))).toEqual({
      granted: false,
      policyId: "p2",
    });
    expect(decide(ps, "DENY_OVERRIDES", req("ROLE_ADMIN", "ROLE_USER"))).toEqual({
      granted: true,
      policyId: "p1",
    });
    expect(decide(ps, "DENY_OVERRIDES", req("ROLE_HR"))).toEqual({ granted: true, policyId: undefined });
  });

  it("PERMIT_OVERRIDES: any Permit wins, else the first Deny, else allowed", () => {
    expect(decide(ps, "PERMIT_OVERRIDES", req("ROLE_GUEST", "ROLE_ADMIN"))).toEqual({
      granted: true,
      policyId: "p3",
    });
    expect(decide(ps, "PERMIT_OVERRIDES", req("ROLE_GUEST"))).toEqual({ granted: false, policyId: "p2" });
    expect(decide(ps, "PERMIT_OVERRIDES", req("ROLE_HR"))).toEqual({ granted: true, policyId: undefined });
  });

  it("DENY_UNLESS_PERMIT: denied without a Permit, even when nothing applies", () => {
    expect(decide(ps, "DENY_UNLESS_PERMIT", req("ROLE_GUEST", "ROLE_USER"))).toEqual({
      granted: true,
      policyId: "p1",
    });
    expect(decide(ps, "DENY_UNLESS_PERMIT", req("ROLE_GUEST"))).toEqual({ granted: false, policyId: "p2" });
    expect(decide(ps, "DENY_UNLESS_PERMIT", req("ROLE_HR"))).toEqual({ granted: false, policyId: undefined });
    expect(decide(ps, "DENY_UNLESS_PERMIT", { path: "/elsewhere" })).toEqual({
      granted: false,
      policyId: undefined,
    });
  });

  it("PERMIT_UNLESS_DENY: allowed unless a Deny applies", () => {
    expect(decide(ps, "PERMIT_UNLESS_DENY", req("ROLE_GUEST", "ROLE_USER"))).toEqual({
      granted: false,
      policyId: "p2",
    });
    expect(decide(ps, "PERMIT_UNLESS_DENY", req("ROLE_ADMIN"))).toEqual({ granted: true, policyId: "p3" });
    expect(decide(ps, "PERMIT_UNLESS_DENY", req("ROLE_HR"))).toEqual({ granted: true, policyId: undefined });
  });

  it("treats a DENY whose condition fails as NotApplicable, not as a Permit", () => {
    const only = [
      policy({ id: "d", effect: "DENY", targets: [["/x", "ANY"]], rules: [["#ai.isBlocked()"]] }),
    ];
    expect(decide(only, "DENY_UNLESS_PERMIT", { path: "/x", auth: user(), action: "ALLOW" })).toEqual({
      granted: false,
      policyId: undefined,
    });
    expect(decide(only, "PERMIT_OVERRIDES", { path: "/x", auth: user(), action: "BLOCK" })).toEqual({
      granted: false,
      policyId: "d",
    });
  });

  it("reports the first decisive policy in evaluation order, not in input order", () => {
    const shuffled = [
      policy({ id: "late", priority: 50, seq: 0, effect: "DENY", targets: [["/y", "ANY"]] }),
      policy({ id: "early", priority: 5, seq: 1, effect: "DENY", targets: [["/y", "ANY"]] }),
    ];
    expect(decide(shuffled, "DENY_OVERRIDES", { path: "/y" })).toEqual({ granted: false, policyId: "early" });
  });
});

describe("reference evaluator, zero trust in ENFORCE", () => {
  const recordedAt = 1_000_000;
  const ps = [
    policy({ id: "open", targets: [["/api/**", "ANY"]] }),
    policy({
      id: "calm",
      targets: [["/calm", "ANY"]],
      rules: [["isAuthenticated() and !#ai.needsChallenge()"]],
    }),
  ];
  const enforce = new ReferenceEvaluator(ps, FA, { mode: "ENFORCE", actionsRecordedAt: recordedAt });
  const off = new ReferenceEvaluator(ps, FA);
  const ask = (
    evaluator: ReferenceEvaluator,
    action: ZeroTrustAction | undefined,
    caller: Authentication | "anonymous" = user("ROLE_USER"),
    path = "/api/x",
  ): ReferenceDecision =>
    evaluator.decide({
      authentication: caller === "anonymous" ? undefined : caller,
      method: "GET",
      path,
      remoteAddress: "10.0.0.1",
      zeroTrustAction: action,
    });

  it("refuses BLOCK and ESCALATE before any policy, without a policyId", () => {
    expect(ask(enforce, "BLOCK")).toEqual({ granted: false, policyId: undefined });
    expect(ask(enforce, "ESCALATE")).toEqual({ granted: false, policyId: undefined });
    expect(ask(off, "BLOCK")).toEqual({ granted: true, policyId: "open" });
  });

  it("lets ALLOW, PENDING_ANALYSIS, no action and anonymous callers through to the policies", () => {
    expect(ask(enforce, "ALLOW")).toEqual({ granted: true, policyId: "open" });
    expect(ask(enforce, "PENDING_ANALYSIS")).toEqual({ granted: true, policyId: "open" });
    expect(ask(enforce, undefined)).toEqual({ granted: true, policyId: "open" });
    expect(ask(enforce, "BLOCK", "anonymous")).toEqual({ granted: true, policyId: "open" });
  });

  it("refuses CHALLENGE unless an otp or hwk factor came at or after the action was recorded", () => {
    const before = { ...user("ROLE_USER"), factors: [{ type: "otp" as const, at: recordedAt - 1 }] };
    const pwdAfter = { ...user("ROLE_USER"), factors: [{ type: "pwd" as const, at: recordedAt + 1 }] };
    const stepped = { ...user("ROLE_USER"), factors: [{ type: "hwk" as const, at: recordedAt }] };
    expect(ask(enforce, "CHALLENGE", before)).toEqual({ granted: false, policyId: undefined });
    expect(ask(enforce, "CHALLENGE", pwdAfter)).toEqual({ granted: false, policyId: undefined });
    expect(ask(enforce, "CHALLENGE", stepped)).toEqual({ granted: true, policyId: "open" });
    // Through the gate, the action still reads as CHALLENGE in the expressions.
    expect(ask(enforce, "CHALLENGE", stepped, "/calm")).toEqual({ granted: false, policyId: "calm" });
  });
});
