import { describe, expect, it } from "vitest";
import { compilePathPattern } from "../../web/path-pattern.js";
import { covers } from "./pattern-coverage.js";

const compile = (pattern: string) => compilePathPattern(pattern, "policy");
const t = (pattern: string, method = "ANY") => ({ pattern: compile(pattern), method });

describe("covers", () => {
  it.each([
    ["/admin/**", "/admin/users/**", true],
    ["/admin/**", "/admin", true],
    ["/admin/**", "/administrators", false],
    ["/api/*", "/api/orders", true],
    ["/api/*", "/api/{id}", true],
    ["/api/{id}", "/api/*", false],
    ["/api/{id}", "/api/42", true],
    ["/api/{id:\\d+}", "/api/42", false], // regex variables are not reasoned about (conservative)
    ["/api/*", "/api/a/b", false],
    ["/api/**/x", "/api/a/x", false], // only a trailing ** is understood
    ["/**", "/anything/at/all", true],
    ["/a/b", "/a/b", true],
    ["/a/b/", "/a/b", true], // compared in canonical form
    ["/a/{x:\\d+}", "/a/{y:\\d+}", true], // the same regex, whatever the name
    ["/a/**/b", "/a/**/b", true],
    ["/a/*", "/a/*.css", false],
  ])("%s covers %s: %s", (a, b, expected) => {
    expect(covers(t(a), t(b))).toBe(expected);
  });

  it("needs the earlier method to be ANY or the same", () => {
    expect(covers(t("/a/**", "GET"), t("/a/b", "GET"))).toBe(true);
    expect(covers(t("/a/**", "GET"), t("/a/b", "POST"))).toBe(false);
    expect(covers(t("/a/**", "GET"), t("/a/b", "ANY"))).toBe(false);
    expect(covers(t("/a/**", "ANY"), t("/a/b", "DELETE"))).toBe(true);
  });

  it("never claims coverage that a sample of paths contradicts", () => {
    const pairs = [
      ["/api/*", "/api/{id}"],
      ["/admin/**", "/admin/users/**"],
      ["/**", "/x/{y}"],
    ];
    const paths = ["/api/1", "/api/x", "/admin", "/admin/users", "/admin/users/7/x", "/x/y", "/"];
    for (const [a, b] of pairs) {
      expect(covers(t(a!), t(b!))).toBe(true);
      for (const p of paths) {
        if (compile(b!).matches(p)) expect(compile(a!).matches(p)).toBe(true);
      }
    }
  });
});
