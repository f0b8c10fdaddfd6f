import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { ExpressionCompiler } from "../expression/expression-compiler.js";
import { convertBusinessRule } from "./business-rule-converter.js";

const o = { timeZone: "Europe/Berlin", compiler: new ExpressionCompiler() };
const base = { name: "Orders desk", urlPattern: "/api/orders/**", httpMethod: "GET", mode: "preview" };
const condition = (input: Record<string, unknown>) =>
  convertBusinessRule({ ...base, ...input }, o).policy.rules?.[0]?.conditions[0]?.expression;

function failure(input: Record<string, unknown>): { code: string; details: Record<string, unknown> } {
  try {
    convertBusinessRule(input, o);
  } catch (error) {
    if (isPlatformError(error)) return { code: error.code, details: error.details ?? {} };
    throw error;
  }
  throw new Error("converted");
}
const issuePath = (input: Record<string, unknown>) => {
  const f = failure(input);
  return [f.code, (f.details.issues as { path: string }[] | undefined)?.[0]?.path ?? f.details.field];
};

describe("convertBusinessRule: each condition kind", () => {
  it("turns roles into hasRole / hasAnyRole and permissions into hasAuthority / hasAnyAuthority", () => {
    expect(condition({ roles: ["MANAGER"] })).toBe("hasRole('MANAGER')");
    expect(condition({ roles: ["MANAGER", "ADMIN", "MANAGER"] })).toBe("hasAnyRole('MANAGER', 'ADMIN')");
    expect(condition({ permissions: ["orders.read"] })).toBe("hasAuthority('orders.read')");
    expect(condition({ permissions: ["a", "b"] })).toBe("hasAnyAuthority('a', 'b')");
    // Either grants: a role or a permission.
    expect(condition({ roles: ["MANAGER"], permissions: ["orders.read"] })).toBe(
      "hasRole('MANAGER') or hasAuthority('orders.read')",
    );
  });

  it("turns time windows into dayOfWeekIn and timeBetween, any window sufficing", () => {
    expect(condition({ timeWindows: [{ days: ["MONDAY", "FRIDAY"], from: "09:00", to: "17:30" }] })).toBe(
      "dayOfWeekIn('MONDAY', 'FRIDAY') and timeBetween('09:00', '17:30')",
    );
    expect(
      condition({
        timeWindows: [{ from: "22:00", to: "06:00", zone: "Europe/Berlin" }, { days: ["SUNDAY"] }],
      }),
    ).toBe("timeBetween('22:00', '06:00') or dayOfWeekIn('SUNDAY')");
  });

  it("turns IP ranges into hasIpAddress, any range sufficing", () => {
    expect(condition({ ipRanges: ["10.0.0.0/8", "2001:db8::/32", "10.0.0.0/8"] })).toBe(
      "hasIpAddress('10.0.0.0/8') or hasIpAddress('2001:db8::/32')",
    );
  });

  it("turns AI conditions into #ai.* calls of the catalog", () => {
    expect(condition({ aiConditions: [{ function: "isAllowed" }] })).toBe("#ai.isAllowed()");
    expect(
      condition({
        aiConditions: [
          { function: "hasActionIn", args: ["ALLOW", "CHALLENGE"] },
          { function: "needsChallenge" },
        ],
      }),
    ).toBe("#ai.hasActionIn('ALLOW', 'CHALLENGE') or #ai.needsChallenge()");
  });

  it("keeps a custom expression as written, and a bare authority as hasAuthority", () => {
    expect(condition({ customConditionSpel: "isAuthenticated() and !hasRole('GUEST')" })).toBe(
      "isAuthenticated() and !hasRole('GUEST')",
    );
    expect(condition({ customConditionSpel: " ROLE_AUDITOR " })).toBe("hasAuthority('ROLE_AUDITOR')");
  });
});

describe("convertBusinessRule: combinations and targets", () => {
  it("requires every given part: each clause in parentheses, joined with and", () => {
    const converted = convertBusinessRule(
      {
        ...base,
        effect: "DENY",
        priority: 5,
        description: "Night shift only",
        roles: ["CLERK"],
        permissions: ["orders.read"],
        timeWindows: [{ days: ["SATURDAY"], from: "08:00", to: "12:00" }],
        ipRanges: ["192.168.0.0/16"],
        aiConditions: [{ function: "isAllowed" }],
        customConditionSpel: "isAuthenticated()",
      },
      o,
    );
    expect(converted.clauses.map((c) => c.field)).toEqual([
      "roles+permissions",
      "timeWindows",
      "ipRanges",
      "aiConditions",
      "customConditionSpel",
    ]);
    expect(converted.policy).toEqual({
      name: "Orders desk",
      description: "Night shift only",
      effect: "DENY",
      priority: 5,
      source: "MANUAL",
      targets: [
        { targetType: "URL", targetIdentifier: "/api/orders/**", httpMethod: "GET", sourceType: "MANUAL" },
      ],
      rules: [
        {
          name: "Orders desk",
          conditions: [
            {
              expression:
                "(hasRole('CLERK') or hasAuthority('orders.read')) and (dayOfWeekIn('SATURDAY') and timeBetween('08:00', '12:00')) and (hasIpAddress('192.168.0.0/16')) and (#ai.isAllowed()) and (isAuthenticated())",
            },
          ],
        },
      ],
    });
    expect(new ExpressionCompiler().validate(converted.policy.rules![0]!.conditions[0]!.expression)).toEqual({
      ok: true,
    });
  });

  it("targets resources (sourceType RESOURCE) and a URL pattern together; no condition: no rule", () => {
    const converted = convertBusinessRule(
      {
        name: "Open",
        mode: "save",
        resources: [
          { resourceType: "URL", resourceIdentifier: "/api/a", httpMethod: "POST" },
          { resourceType: "METHOD", resourceIdentifier: "demo.OrderService.get(string)" },
        ],
        urlPattern: "/api/b/*",
      },
      o,
    );
    expect(converted.mode).toBe("save");
    expect(converted.policy.effect).toBe("ALLOW");
    expect(converted.policy.rules).toEqual([]);
    expect(converted.policy.targets).toEqual([
      { targetType: "URL", targetIdentifier: "/api/a", httpMethod: "POST", sourceType: "RESOURCE" },
      {
        targetType: "METHOD",
        targetIdentifier: "demo.OrderService.get(string)",
        httpMethod: "ANY",
        sourceType: "RESOURCE",
      },
      { targetType: "URL", targetIdentifier: "/api/b/*", httpMethod: "ANY", sourceType: "MANUAL" },
    ]);
  });

  it("quotes a hostile value as one string literal: a quote cannot end it and inject an expression", () => {
    const f = failure({
      ...base,
      aiConditions: [{ function: "hasAction", args: ["ALLOW') or permitAll or ('"] }],
    });
    expect(f.code).toBe("POLICY_EXPRESSION_INVALID");
    expect(f.details).toMatchObject({
      field: "aiConditions.0",
      expression: "#ai.hasAction('ALLOW'') or permitAll or (''')",
    });
  });
});

describe("convertBusinessRule: bad input names its field", () => {
  it.each([
    [{}, "VALIDATION_FAILED", "name"],
    [{ ...base, mode: "apply" }, "VALIDATION_FAILED", "mode"],
    [{ ...base, urlPattern: undefined, httpMethod: undefined }, "VALIDATION_FAILED", "resources"],
    [{ ...base, urlPattern: undefined }, "VALIDATION_FAILED", "resources"],
    [{ ...base, effect: "MAYBE" }, "VALIDATION_FAILED", "effect"],
    [{ ...base, extra: 1 }, "VALIDATION_FAILED", ""],
    [{ ...base, roles: [] }, "VALIDATION_FAILED", "roles"],
    [{ ...base, roles: ["A') or permitAll or hasRole('B"] }, "VALIDATION_FAILED", "roles.0"],
    [{ ...base, permissions: ["x".repeat(101)] }, "VALIDATION_FAILED", "permissions.0"],
    [{ ...base, timeWindows: [{ from: "9:00", to: "17:00" }] }, "VALIDATION_FAILED", "timeWindows.0.from"],
    [{ ...base, timeWindows: [{ from: "09:00" }] }, "VALIDATION_FAILED", "timeWindows.0"],
    [{ ...base, timeWindows: [{ from: "09:00", to: "09:00" }] }, "VALIDATION_FAILED", "timeWindows.0"],
    [{ ...base, timeWindows: [{}] }, "VALIDATION_FAILED", "timeWindows.0"],
    [{ ...base, timeWindows: [{ days: ["FUNDAY"] }] }, "VALIDATION_FAILED", "timeWindows.0.days.0"],
    [
      { ...base, timeWindows: [{ days: ["MONDAY"], zone: "America/New_York" }] },
      "VALIDATION_FAILED",
      "timeWindows.0.zone",
    ],
    [{ ...base, ipRanges: ["10.0.0.0/33"] }, "VALIDATION_FAILED", "ipRanges.0"],
    [{ ...base, ipRanges: ["not an address"] }, "VALIDATION_FAILED", "ipRanges.0"],
    [
      { ...base, aiConditions: [{ function: "constructor" }] },
      "VALIDATION_FAILED",
      "aiConditions.0.function",
    ],
    [
      { ...base, aiConditions: [{ function: "hasAction", args: ["MAYBE"] }] },
      "POLICY_EXPRESSION_INVALID",
      "aiConditions.0",
    ],
    [
      { ...base, aiConditions: [{ function: "isAllowed", args: ["X"] }] },
      "POLICY_EXPRESSION_INVALID",
      "aiConditions.0",
    ],
    [{ ...base, customConditionSpel: "hasRole(" }, "POLICY_EXPRESSION_INVALID", "customConditionSpel"],
    [{ ...base, customConditionSpel: "   " }, "VALIDATION_FAILED", "customConditionSpel"],
    [{ ...base, customConditionSpel: "x".repeat(5_000) }, "VALIDATION_FAILED", "customConditionSpel"],
    [{ ...base, name: "" }, "VALIDATION_FAILED", "name"],
  ])("case %# → %s at %s", (input, code, path) => {
    expect(issuePath(input as Record<string, unknown>)).toEqual([code, path]);
  });

  it("answers a bounded error for a hostile body (many keys, huge values)", () => {
    const hostile = Object.fromEntries(
      Array.from({ length: 500 }, (_, i) => [`${"k".repeat(1_000)}${i}`, i]),
    );
    const f = failure({ ...base, ...hostile });
    expect(f.code).toBe("VALIDATION_FAILED");
    expect(JSON.stringify(f.details).length).toBeLessThan(20_000);
    for (const input of [null, "text", 42, [base]])
      expect(failure(input as never).code).toBe("VALIDATION_FAILED");
  });
});
