import { describe, expect, it } from "vitest";
import { antMatcher } from "../../web/request-matcher.js";
import { apiChain, chain } from "./static-rule.fixture.js";
import { listStaticRules } from "./static-rule-listing.js";

describe("listStaticRules", () => {
  it("maps a role check to roles ALLOW and an authority check to permissions ALLOW, one entry per pattern", () => {
    const entries = listStaticRules([apiChain()]);
    const importable = entries.filter((e) => e.importable);
    expect(importable.map((e) => [e.key, e.position, e.mapping?.expression])).toEqual([
      ["api:ANY:/api/admin/**", 0, "hasAnyRole('ADMIN')"],
      ["api:ANY:/api/ops/**", 0, "hasAnyRole('ADMIN')"],
      ["api:GET:/api/reports/*", 1, "hasAnyAuthority('reports.read', 'SCOPE_reports')"],
    ]);
    expect(importable[0]).toMatchObject({
      chain: "api",
      pattern: "/api/admin/**",
      method: "ANY",
      rule: { kind: "roles", values: ["ADMIN"] },
      mapping: { effect: "ALLOW" },
    });
  });

  it("lists every other rule as not importable, with the reason", () => {
    const refused = listStaticRules([apiChain()]).filter((e) => !e.importable);
    expect(refused.map((e) => [e.key, e.rule.kind, e.reason?.split(/[ :]/)[0]])).toEqual([
      ["api:ANY:/api/public/**", "permitAll", "permitAll"],
      ["api:ANY:/api/closed/**", "denyAll", "denyAll"],
      ["api:ANY:/api/me", "authenticated", "authenticated()"],
      ["api:ANY:/api/step-up/**", "custom", "recentFactor(...)"],
      ["api:TRACE:/api/trace", "roles", "a"],
      ["api:#7", "roles", "its"],
      // anyRequest() stands for the chain's own pattern.
      ["api:ANY:/api/**", "custom", "it"],
    ]);
    expect(refused.find((e) => e.key === "api:ANY:/api/step-up/**")?.rule).toEqual({
      kind: "custom",
      name: "recentFactor",
      args: ["60000"],
    });
    expect(refused.every((e) => e.reason && !e.mapping)).toBe(true);
  });

  it("keys anyRequest() by the chain's pattern, or /** for a chain that takes every request", () => {
    const open = chain("web", (a) =>
      a.requestMatchers("/admin/**").hasRole("ADMIN").anyRequest().hasRole("USER"),
    );
    expect(listStaticRules([open]).map((e) => e.key)).toEqual(["web:ANY:/admin/**", "web:ANY:/**"]);
    const odd = chain("odd", (a) => a.anyRequest().hasRole("USER"), {
      description: "custom",
      matches: () => true,
    });
    expect(listStaticRules([odd])).toMatchObject([{ key: "odd:#0", importable: false, pattern: null }]);
  });

  it("quotes role values into the expression: a quote in a role cannot end the literal", () => {
    const hostile = chain(
      "x",
      (a) => a.requestMatchers("/a").hasRole("A') or permitAll or hasRole('B"),
      antMatcher("/**"),
    );
    expect(listStaticRules([hostile])[0]?.mapping?.expression).toBe(
      "hasAnyRole('A'') or permitAll or hasRole(''B')",
    );
  });
});
