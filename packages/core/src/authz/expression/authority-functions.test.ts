import { describe, expect, it } from "vitest";
import { anyAuthority, roleAuthority } from "./authority-functions.js";
import type { EvaluationContext } from "./evaluation-context.js";
import { compileExpression } from "./expression-compiler.js";
import { testContext, testUser } from "./test-context.js";

const anonymous = testContext();
const noAuthorities = testContext({ authentication: testUser() });
const admin = testContext({ authentication: testUser("ROLE_ADMIN", "report:read") });
const user = testContext({ authentication: testUser("ROLE_USER") });

type Row = [source: string, ctx: EvaluationContext, expected: boolean];

describe("authority functions", () => {
  it.each<Row>([
    ["permitAll", anonymous, true],
    ["permitAll()", admin, true],
    ["denyAll", admin, false],
    ["denyAll()", anonymous, false],
    ["isAuthenticated()", noAuthorities, true],
    ["isAuthenticated()", anonymous, false],
    ["isFullyAuthenticated()", admin, true],
    ["isFullyAuthenticated()", anonymous, false],
    ["isAnonymous()", anonymous, true],
    ["isAnonymous()", noAuthorities, false],
    ["isRememberMe()", admin, false],
    ["isRememberMe()", anonymous, false],
    ["hasRole('ADMIN')", admin, true],
    ["hasRole('ROLE_ADMIN')", admin, true],
    ["hasRole('ADMIN')", user, false],
    ["hasRole('ADMIN')", anonymous, false],
    ["hasRole('admin')", admin, false],
    ["hasAnyRole('USER', 'ADMIN')", admin, true],
    ["hasAnyRole('USER', 'ROLE_ADMIN')", user, true],
    ["hasAnyRole('AUDITOR', 'OPERATOR')", admin, false],
    ["hasAnyRole('USER')", anonymous, false],
    ["hasAuthority('report:read')", admin, true],
    ["hasAuthority('ROLE_ADMIN')", admin, true],
    ["hasAuthority('ADMIN')", admin, false],
    ["hasAuthority('report:read')", noAuthorities, false],
    ["hasAuthority('report:read')", anonymous, false],
    ["hasAnyAuthority('A', 'report:read')", admin, true],
    ["hasAnyAuthority('A', 'B')", admin, false],
    ["hasAnyAuthority('A', 'B', 'ROLE_USER')", user, true],
    ["hasAnyAuthority('A', 'B', 'C')", admin, false],
    ["hasAnyAuthority('A', 'B', 'C', 'D', 'E', 'ROLE_USER')", user, true],
    ["hasAnyAuthority('A', 'B', 'C', 'D', 'E', 'F')", admin, false],
    ["hasAnyAuthority('A', 'B', 'C', 'D', 'E', 'F')", anonymous, false],
  ])("%s → %s", (source, ctx, expected) => {
    expect(compileExpression(source).evaluate(ctx)).toBe(expected);
  });

  it("maps roles to ROLE_ authorities once", () => {
    expect(roleAuthority("ADMIN")).toBe("ROLE_ADMIN");
    expect(roleAuthority("ROLE_ADMIN")).toBe("ROLE_ADMIN");
    expect(roleAuthority("role_admin")).toBe("ROLE_role_admin");
  });

  it("matches every list size against every position of the caller's authorities", () => {
    for (let size = 1; size <= 8; size++) {
      const wanted = Array.from({ length: size }, (_, i) => `W${i}`);
      const matcher = anyAuthority(wanted);
      for (const hit of wanted) {
        expect(matcher(testContext({ authentication: testUser("X", "Y", hit) }))).toBe(true);
        expect(matcher(testContext({ authentication: testUser(hit) }))).toBe(true);
      }
      expect(matcher(testContext({ authentication: testUser("X", "Y", "Z") }))).toBe(false);
      expect(matcher(testContext({ authentication: testUser() }))).toBe(false);
    }
  });

  it("compares authorities exactly, never through the prototype", () => {
    const matcher = anyAuthority(["constructor", "toString", "A", "B", "C", "D"]);
    expect(matcher(testContext({ authentication: testUser("__proto__", "hasOwnProperty") }))).toBe(false);
    expect(matcher(testContext({ authentication: testUser("constructor") }))).toBe(true);
  });
});
