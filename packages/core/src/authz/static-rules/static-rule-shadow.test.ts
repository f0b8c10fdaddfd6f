import { describe, expect, it } from "vitest";
import type { PolicyTarget } from "../policy/policy.js";
import { antMatcher } from "../../web/request-matcher.js";
import { dynamicAuthorization } from "../pdp/dynamic-authorization.js";
import { apiChain, chain } from "./static-rule.fixture.js";
import { staticShadowOf } from "./static-rule-shadow.js";

const url = (
  targetIdentifier: string,
  httpMethod: PolicyTarget["httpMethod"] = "ANY",
  targetOrder = 0,
): PolicyTarget => ({
  targetType: "URL",
  targetIdentifier,
  httpMethod,
  targetOrder,
  sourceType: "MANUAL",
});
const shadowed = (targets: PolicyTarget[], chains = [apiChain()]) =>
  staticShadowOf({ targets }, chains).map((s) => [
    s.target.targetIdentifier,
    s.chain,
    s.position,
    s.rule.kind,
  ]);

describe("staticShadowOf", () => {
  it("reports a target a static rule decides first, with that rule", () => {
    expect(shadowed([url("/api/admin/users/*", "POST")])).toEqual([
      ["/api/admin/users/*", "api", 0, "roles"],
    ]);
    // The imported policy of a rule is shadowed by that very rule.
    expect(shadowed([url("/api/reports/*", "GET")])).toEqual([["/api/reports/*", "api", 1, "authorities"]]);
    expect(shadowed([url("/api/public/x")])).toEqual([["/api/public/x", "api", 2, "permitAll"]]);
  });

  it("does not report a target that reaches the policies (dynamicAuthorization) or that no rule certainly takes", () => {
    expect(shadowed([url("/api/orders/**")])).toEqual([]);
    // GET-only rule: a POST target is not taken by it, an ANY target only partly.
    expect(shadowed([url("/api/reports/*", "POST"), url("/api/reports/*")])).toEqual([]);
    // Partly inside /api/admin/**: not certainly shadowed.
    expect(shadowed([url("/api/**")])).toEqual([]);
    // Outside every chain: no static rule applies.
    expect(shadowed([url("/web/admin/**")])).toEqual([]);
    expect(
      staticShadowOf({ targets: [{ ...url("x"), targetType: "METHOD", targetIdentifier: "a.B.c()" }] }, [
        apiChain(),
      ]),
    ).toEqual([]);
  });

  it("takes the first chain that serves every request of the target, and lists each shadowed target", () => {
    const web = chain("web", (a) =>
      a.requestMatchers("/admin/**").hasRole("ADMIN").anyRequest().access(dynamicAuthorization()),
    );
    const early = chain("early", (a) => a.anyRequest().authenticated(), antMatcher("/admin/reports/**"));
    expect(
      shadowed(
        [url("/admin/reports/x", "GET", 0), url("/admin/users", "ANY", 1), url("/shop")],
        [early, web],
      ),
    ).toEqual([
      ["/admin/reports/x", "early", 0, "authenticated"],
      ["/admin/users", "web", 0, "roles"],
    ]);
  });
});
