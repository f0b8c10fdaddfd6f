import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import {
  assertProvenance,
  POLICY_LIMITS,
  type PolicyCreateInput,
  parsePolicyCreate,
  parsePolicyUpdate,
} from "./policy-schema.js";

const minimal: PolicyCreateInput = {
  name: "Admins only",
  effect: "ALLOW",
  targets: [{ targetType: "URL", targetIdentifier: "/admin/**" }],
};

/** The issues of the VALIDATION_FAILED a parse threw, or a failure marker. */
function issuesOf(parse: () => unknown): { path: string; message: string }[] {
  try {
    parse();
  } catch (error) {
    if (isPlatformError(error) && error.code === "VALIDATION_FAILED") {
      return error.details?.issues as { path: string; message: string }[];
    }
    throw error;
  }
  throw new Error("parsed without error");
}

const pathsOf = (input: unknown) => issuesOf(() => parsePolicyCreate(input)).map((i) => i.path);

describe("parsePolicyCreate", () => {
  it("applies the documented defaults", () => {
    expect(
      parsePolicyCreate({
        ...minimal,
        targets: [
          { targetType: "URL", targetIdentifier: "/admin/**" },
          { targetType: "METHOD", targetIdentifier: "com.shop.OrderService.find(Long, java.lang.String[])" },
          {
            targetType: "URL",
            targetIdentifier: "/ops/**",
            httpMethod: "POST",
            targetOrder: 7,
            sourceType: "RESOURCE",
          },
        ],
      }),
    ).toEqual({
      name: "Admins only",
      description: "",
      effect: "ALLOW",
      priority: 0,
      targets: [
        {
          targetType: "URL",
          targetIdentifier: "/admin/**",
          httpMethod: "ANY",
          targetOrder: 0,
          sourceType: "MANUAL",
        },
        {
          targetType: "METHOD",
          targetIdentifier: "com.shop.OrderService.find(Long, java.lang.String[])",
          httpMethod: "ANY",
          targetOrder: 1,
          sourceType: "MANUAL",
        },
        {
          targetType: "URL",
          targetIdentifier: "/ops/**",
          httpMethod: "POST",
          targetOrder: 7,
          sourceType: "RESOURCE",
        },
      ],
      rules: [],
      source: "MANUAL",
      isActive: true,
      confidenceScore: null,
      aiModel: null,
    });
  });

  it("trims the name and accepts every field at its limits", () => {
    const parsed = parsePolicyCreate({
      name: `  ${"n".repeat(POLICY_LIMITS.nameMaxLength)}  `,
      description: "d".repeat(POLICY_LIMITS.descriptionMaxLength),
      effect: "DENY",
      priority: POLICY_LIMITS.priorityMin,
      targets: Array.from({ length: POLICY_LIMITS.maxTargets }, (_, i) => ({
        targetType: "URL" as const,
        targetIdentifier: `/t${i}/**`,
      })),
      rules: Array.from({ length: POLICY_LIMITS.maxRules }, (_, i) => ({
        name: `r${i}`,
        conditions: Array.from({ length: POLICY_LIMITS.maxConditionsPerRule }, () => ({
          expression: "x".repeat(POLICY_LIMITS.expressionMaxLength),
        })),
      })),
      source: "AI_EVOLVED",
      isActive: false,
      confidenceScore: 1,
      aiModel: "model-x",
    });
    expect(parsed.name).toBe("n".repeat(POLICY_LIMITS.nameMaxLength));
    expect(parsed.targets).toHaveLength(50);
    expect(parsed.rules).toHaveLength(50);
  });

  it("refuses every field one past its limit, with the field's path", () => {
    const one = (patch: Record<string, unknown>) => pathsOf({ ...minimal, ...patch });
    expect(one({ name: "n".repeat(201) })).toEqual(["name"]);
    expect(one({ name: "   " })).toEqual(["name"]);
    expect(one({ name: "line\nbreak" })).toEqual(["name"]);
    expect(one({ description: "d".repeat(2_001) })).toEqual(["description"]);
    expect(one({ priority: 1_000_001 })).toEqual(["priority"]);
    expect(one({ priority: -1_000_001 })).toEqual(["priority"]);
    expect(one({ priority: 1.5 })).toEqual(["priority"]);
    expect(one({ priority: "1" })).toEqual(["priority"]);
    expect(one({ targets: [] })).toEqual(["targets"]);
    expect(one({ targets: Array(51).fill(minimal.targets[0]) })).toEqual(["targets"]);
    expect(one({ rules: Array(51).fill({ name: "r", conditions: [{ expression: "permitAll" }] }) })).toEqual([
      "rules",
    ]);
    expect(one({ rules: [{ name: "r", conditions: [] }] })).toEqual(["rules.0.conditions"]);
    expect(one({ rules: [{ name: "r", conditions: Array(21).fill({ expression: "permitAll" }) }] })).toEqual([
      "rules.0.conditions",
    ]);
    expect(one({ rules: [{ name: "r", conditions: [{ expression: "x".repeat(4_097) }] }] })).toEqual([
      "rules.0.conditions.0.expression",
    ]);
    expect(one({ rules: [{ name: "r", conditions: [{ expression: "" }] }] })).toEqual([
      "rules.0.conditions.0.expression",
    ]);
    expect(one({ source: "AI_GENERATED", confidenceScore: 1.01 })).toEqual(["confidenceScore"]);
    expect(one({ source: "AI_GENERATED", confidenceScore: -0.1 })).toEqual(["confidenceScore"]);
    expect(one({ source: "AI_GENERATED", aiModel: "m".repeat(201) })).toEqual(["aiModel"]);
    expect(one({ effect: "PERMIT" })).toEqual(["effect"]);
    expect(one({ source: "HUMAN" })).toEqual(["source"]);
    expect(one({ isActive: "true" })).toEqual(["isActive"]);
  });

  it("refuses format characters (zero-width, bidi) and stray controls in every text field and expression", () => {
    const one = (patch: Record<string, unknown>) => pathsOf({ ...minimal, ...patch });
    const rule = (name: string, expression: string) => ({ rules: [{ name, conditions: [{ expression }] }] });
    for (const c of ["\u200b", "\u202e", "\u2066", "\ufeff", "\u2028"]) {
      expect(one({ name: `Grant ADMIN ${c}NIMDA` }), JSON.stringify(c)).toEqual(["name"]);
      expect(one({ description: `d${c}` }), JSON.stringify(c)).toEqual(["description"]);
      expect(one(rule(`r${c}x`, "permitAll")), JSON.stringify(c)).toEqual(["rules.0.name"]);
      expect(one(rule("r", `hasRole('ADMIN${c}')`)), JSON.stringify(c)).toEqual([
        "rules.0.conditions.0.expression",
      ]);
    }
    expect(one({ description: "bell\u0007" })).toEqual(["description"]);
    expect(one(rule("r", "hasRole('A')\u0000"))).toEqual(["rules.0.conditions.0.expression"]);
    // Line breaks and tabs stay allowed where text spans lines.
    expect(
      parsePolicyCreate({
        ...minimal,
        description: "one\n\ttwo\r\n",
        ...rule("r", "hasRole('A')\n or hasRole('B')"),
      }),
    ).toMatchObject({ description: "one\n\ttwo\r\n" });
  });

  it("refuses unknown keys at every level, including approvalStatus and prototype keys", () => {
    expect(pathsOf({ ...minimal, approvalStatus: "APPROVED" })).toEqual([""]);
    expect(pathsOf({ ...minimal, id: "chosen" })).toEqual([""]);
    expect(
      pathsOf(
        JSON.parse(
          `{"name":"x","effect":"ALLOW","targets":[{"targetType":"URL","targetIdentifier":"/a"}],"__proto__":{"isAdmin":true}}`,
        ),
      ),
    ).toEqual([""]);
    expect(pathsOf({ ...minimal, targets: [{ ...minimal.targets[0], extra: 1 }] })).toEqual(["targets.0"]);
    expect(
      pathsOf({ ...minimal, rules: [{ name: "r", conditions: [{ expression: "permitAll", spel: "x" }] }] }),
    ).toEqual(["rules.0.conditions.0"]);
    expect(pathsOf({ ...minimal, rules: [{ name: "r", conditions: [], when: 1 }] })).toContain("rules.0");
  });

  it("refuses non-objects and missing required fields", () => {
    for (const input of [null, undefined, "policy", 42, [], [minimal]]) {
      expect(pathsOf(input)).toEqual([""]);
    }
    expect(pathsOf({}).sort()).toEqual(["effect", "name", "targets"]);
  });

  it("refuses URL targets that are not valid Ant patterns", () => {
    for (const targetIdentifier of ["admin/**", "/a/{id", "/a/}", "/a/{1x}", `/${"a".repeat(1_024)}`]) {
      expect(pathsOf({ ...minimal, targets: [{ targetType: "URL", targetIdentifier }] })).toEqual([
        "targets.0.targetIdentifier",
      ]);
    }
  });

  it("accepts method identifiers of the scanner's shape and refuses others", () => {
    const method = (targetIdentifier: string, extra: Record<string, unknown> = {}) =>
      pathsOf({ ...minimal, targets: [{ targetType: "METHOD", targetIdentifier, ...extra }] });
    for (const ok of [
      "a.B.c()",
      "Svc.m(Long,String)",
      "com.x.OrderService.find(java.lang.Long, byte[])",
      "$A._b(int[][])",
    ]) {
      expect(() =>
        parsePolicyCreate({ ...minimal, targets: [{ targetType: "METHOD", targetIdentifier: ok }] }),
      ).not.toThrow();
    }
    for (const bad of [
      "find()",
      "Svc.m",
      "Svc.m(",
      "Svc.m(Long,)",
      "Svc.m(List<String>)",
      "/admin/**",
      "Svc..m()",
      "Svc.m() ",
      "Svc.m(a b)",
    ]) {
      expect(method(bad)).toEqual(["targets.0.targetIdentifier"]);
    }
    expect(method("Svc.m()", { httpMethod: "GET" })).toEqual(["targets.0.httpMethod"]);
  });

  it("answers a hostile method identifier in linear time", () => {
    const hostile = `${"a.".repeat(300)}a(${"B,".repeat(200)}`;
    expect(hostile.length).toBeLessThanOrEqual(POLICY_LIMITS.targetIdentifierMaxLength);
    const started = performance.now();
    expect(pathsOf({ ...minimal, targets: [{ targetType: "METHOD", targetIdentifier: hostile }] })).toEqual([
      "targets.0.targetIdentifier",
    ]);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it("refuses AI provenance on a MANUAL policy but allows it on the others", () => {
    expect(pathsOf({ ...minimal, confidenceScore: 0.5, aiModel: "m" }).sort()).toEqual([
      "aiModel",
      "confidenceScore",
    ]);
    for (const source of ["AI_GENERATED", "AI_EVOLVED", "IMPORTED"] as const) {
      expect(parsePolicyCreate({ ...minimal, source, confidenceScore: 0.5, aiModel: "m" })).toMatchObject({
        confidenceScore: 0.5,
        aiModel: "m",
      });
    }
  });

  it("caps the number and length of reported issues", () => {
    const keys = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`${"k".repeat(1_000)}${i}`, 1]));
    const issues = issuesOf(() =>
      parsePolicyCreate({ ...keys, targets: Array(60).fill({ targetType: "X" }) }),
    );
    expect(issues.length).toBeLessThanOrEqual(20);
    for (const issue of issues) expect(issue.message.length).toBeLessThanOrEqual(300);
  });
});

describe("parsePolicyUpdate", () => {
  it("keeps only the given fields and defaults target fields", () => {
    expect(parsePolicyUpdate({ priority: 5 })).toEqual({ priority: 5 });
    expect(parsePolicyUpdate({ targets: [{ targetType: "URL", targetIdentifier: "/x" }] })).toEqual({
      targets: [
        {
          targetType: "URL",
          targetIdentifier: "/x",
          httpMethod: "ANY",
          targetOrder: 0,
          sourceType: "MANUAL",
        },
      ],
    });
  });

  it("refuses an empty change, source, approvalStatus, isActive and unknown keys", () => {
    const paths = (input: unknown) => issuesOf(() => parsePolicyUpdate(input)).map((i) => i.path);
    expect(paths({})).toEqual([""]);
    for (const key of ["source", "approvalStatus", "isActive", "id", "version", "createdSeq"]) {
      expect(paths({ name: "x", [key]: "y" })).toEqual([""]);
    }
    expect(paths({ name: "" })).toEqual(["name"]);
    expect(paths({ rules: [{ name: "r", conditions: [] }] })).toEqual(["rules.0.conditions"]);
  });
});

describe("assertProvenance", () => {
  it("throws VALIDATION_FAILED only for a MANUAL policy carrying AI fields", () => {
    expect(() => assertProvenance("MANUAL", { confidenceScore: null, aiModel: null })).not.toThrow();
    expect(() => assertProvenance("AI_GENERATED", { confidenceScore: 0.2, aiModel: "m" })).not.toThrow();
    expect(issuesOf(() => assertProvenance("MANUAL", { confidenceScore: 0.2, aiModel: null }))).toEqual([
      { path: "confidenceScore", message: "must be null for a MANUAL policy" },
    ]);
  });
});
