import { describe, expect, it } from "vitest";
import { isPlatformError } from "../kernel/platform-error.js";
import {
  compilePathPattern,
  MAX_PATH_PATTERN_LENGTH,
  type PathPattern,
  routePattern,
  splitPath,
} from "./path-pattern.js";
import { antMatcher } from "./request-matcher.js";

/** A policy-target pattern (the form that also takes partial-segment wildcards). */
const compile = (pattern: string): PathPattern => compilePathPattern(pattern, "policy");

/** The decoded variables of a matching path, or undefined. */
const extract = (pattern: PathPattern, path: string): Record<string, string> | undefined =>
  pattern.match(splitPath(path)) ?? undefined;

type Row = [pattern: string, path: string, expected: Record<string, string> | false];

// `false`: no match. An object: a match with exactly these variables ({} when the pattern has none).
const CASES: Row[] = [
  // literals and trailing slashes: paths arrive canonical (no trailing slash), patterns are read so
  ["/", "/", {}],
  ["/", "", {}],
  ["/", "/a", false],
  ["/login", "/login", {}],
  ["/login", "/login/", false],
  ["/login/", "/login", {}],
  ["/login/", "/login/", false],
  ["/%6Cogin", "/login", {}],
  ["/café", "/caf%C3%A9", {}],
  ["/login", "/Login", false],
  ["/login", "/login?error", false],
  ["/a/b", "/a//b", false],
  ["/a", "a", false],
  // regex metacharacters are literal
  ["/v1.0/x", "/v1.0/x", {}],
  ["/v1.0/x", "/v1a0/x", false],
  ["/a+b", "/a+b", {}],
  ["/a+b", "/aab", false],
  ["/f(x)", "/f(x)", {}],
  ["/f(x)", "/fx", false],
  ["/price$", "/price$", {}],
  ["/a|b", "/a", false],
  ["/[ab]", "/[ab]", {}],
  ["/[ab]", "/a", false],
  ["/^x", "/^x", {}],
  // encoded characters stay literal
  ["/a%2Fb", "/a%2Fb", {}],
  ["/a%2Fb", "/a/b", false],
  ["/a/*", "/a/b%2Fc", {}],
  ["/caf%C3%A9", "/café", false],
  // ?
  ["/t?st", "/test", {}],
  ["/t?st", "/tst", false],
  ["/t?st", "/teest", false],
  ["/a?b", "/a/b", false],
  ["/??", "/ab", {}],
  // *
  ["/*", "/", {}],
  ["/*", "/anything", {}],
  ["/*", "/a/b", false],
  ["/*.css", "/site.css", {}],
  ["/*.css", "/.css", {}],
  ["/*.css", "/dir/site.css", false],
  ["/a/*/c", "/a/b/c", {}],
  ["/a/*/c", "/a/b/x/c", false],
  ["/a*b*c", "/axxbyyc", {}],
  ["/a*b*c", "/axxbyy", false],
  ["/a**", "/abc", {}],
  ["/a**", "/a/bc", false],
  ["/**a", "/xa", {}],
  // ** at the end
  ["/api/**", "/api", {}],
  ["/api/**", "/api/", {}],
  ["/api/**", "/api/a/b", {}],
  ["/api/**", "/apix", false],
  ["/api/**", "/", false],
  ["/**", "/", {}],
  ["/**", "", {}],
  ["/**", "/a/b/c.d", {}],
  // ** at the start and in the middle
  ["/**/x", "/x", {}],
  ["/**/x", "/a/b/x", {}],
  ["/**/x", "/a/b/x/", false],
  ["/**/*.js", "/lib/app.js", {}],
  ["/**/*.js", "/app.js", {}],
  ["/a/**/b", "/a/b", {}],
  ["/a/**/b", "/a/x/y/b", {}],
  ["/a/**/b", "/a/x/y/c", false],
  ["/a/**/b/**/c", "/a/1/b/2/3/c", {}],
  ["/**/**/x", "/a/x", {}],
  // {var}
  ["/users/{id}", "/users/42", { id: "42" }],
  ["/users/{id}", "/users/", false],
  ["/users/{id}", "/users/4/2", false],
  ["/users/{id}/posts/{post}", "/users/7/posts/hello", { id: "7", post: "hello" }],
  ["/files/{name}.{ext}", "/files/a.tar.gz", {}], // partial segments judge; they hand no variables over
  ["/files/{name}.{ext}", "/files/.gz", false],
  ["/p-{id}", "/p-9", {}],
  ["/u/{name}", "/u/j%20doe", { name: "j doe" }],
  ["/**/{leaf}", "/a/b/c", { leaf: "c" }],
  ["/{first}/**", "/a/b/c", { first: "a" }],
  ["/{a}/**/{b}/**", "/1/2/3", { a: "1", b: "2" }],
  // {var:regex}
  ["/users/{id:\\d+}", "/users/42", { id: "42" }],
  ["/users/{id:\\d+}", "/users/4x", false],
  ["/users/{id:\\d+}", "/users/", false],
  ["/{id:\\d{3}}", "/123", { id: "123" }],
  ["/{id:\\d{3}}", "/1234", false],
  ["/{v:a|b}", "/a", { v: "a" }],
  ["/{v:a|b}", "/ab", false],
  ["/{rest:.*}", "/a/b", false],
  ["/{rest:.*}/x", "/a/b/x", false],
  ["/{rest:[\\s\\S]+}", "/a", { rest: "a" }],
  ["/v{major:\\d+}.{minor:(\\d+)}-{tag}", "/v1.20-rc", {}],
  ["/**/{id:\\d+}", "/a/b/17", { id: "17" }],
];

describe("compilePathPattern", () => {
  it.each(CASES)("%s against %j", (pattern, path, expected) => {
    const compiled = compile(pattern);
    expect(compiled.pattern).toBe(pattern);
    expect(compiled.matches(path)).toBe(expected !== false);
    expect(extract(compiled, path)).toEqual(expected === false ? undefined : expected);
  });

  it.each([
    ["", "must start with '/'"],
    ["api/**", "must start with '/'"],
    ["/{id", "unclosed '{'"],
    ["/id}", "unmatched '}'"],
    ["/{}", "invalid variable name"],
    ["/{1x}", "invalid variable name"],
    ["/{__proto__}", "invalid variable name"],
    ["/{id}/{id}", "twice"],
    ["/{id}-{id:\\d+}", "twice"],
    ["/{id:}", "empty regex"],
    ["/{id:[a-z/]+}", "containing '/'"],
    ["/{id:a/b}", "containing '/'"],
    ["/{id:(}", "invalid regex"],
    ["/{id:(a)\\1}", "backreference"],
    ["/{a:(?<g>x)}{b:(?<g>y)}", "cannot be combined"],
    [`/${"a".repeat(MAX_PATH_PATTERN_LENGTH)}`, "longer than"],
  ])("rejects %j (%s)", (pattern, problem) => {
    let thrown: unknown;
    try {
      compile(pattern);
    } catch (e) {
      thrown = e;
    }
    expect(isPlatformError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: "CONFIGURATION_INVALID" });
    expect((thrown as Error).message).toContain(problem);
  });

  it("matches a segment whose escapes are not UTF-8, but hands over no variables for it", () => {
    const compiled = compile("/u/{name}");
    expect(compiled.matches("/u/%C3")).toBe(true);
    expect(extract(compiled, "/u/%C3")).toBeUndefined();
    expect(extract(compiled, "/u/%C3%A9")).toEqual({ name: "é" });
  });

  it("accepts a pattern of exactly the maximum length", () => {
    const pattern = `/${"a".repeat(MAX_PATH_PATTERN_LENGTH - 1)}`;
    expect(compile(pattern).matches(pattern)).toBe(true);
  });

  it("is reusable: one compiled pattern answers many paths", () => {
    const p = compile("/users/{id:\\d+}/**");
    expect(extract(p, "/users/1/a")).toEqual({ id: "1" });
    expect(extract(p, "/users/x/a")).toBeUndefined();
    expect(extract(p, "/users/22")).toEqual({ id: "22" });
  });
});

describe("compilePathPattern against hostile paths", () => {
  const deep = "/a".repeat(5_000);

  // Each of these would backtrack polynomially or exponentially as one naive RegExp.
  it.each([
    ["/**/**/**/x", deep, false],
    ["/**/**/**/x", `${deep}/x`, true],
    ["/**/a/**/a/**/a/**/b", deep, false],
    ["/**/a/**/a/**/a/**/b", `${deep}/b`, true],
    ["/*a*a*a*a*b", `/${"a".repeat(20_000)}`, false],
    ["/{x}a{y}a{z}b", `/${"a".repeat(20_000)}`, false],
    ["/**/*a*a*b/**", `${"/aaaaaaaaaa".repeat(2_000)}`, false],
  ])("%s answers correctly", { timeout: 2_000 }, (pattern, path, expected) => {
    expect(compile(pattern).matches(path)).toBe(expected);
  });
});

describe("one path language, three places", () => {
  const refusal = (pattern: string, use: "matcher" | "route"): string => {
    try {
      compilePathPattern(pattern, use);
    } catch (error) {
      expect(isPlatformError(error)).toBe(true);
      expect(error).toMatchObject({ code: "CONFIGURATION_INVALID", details: { pattern } });
      return (error as Error).message;
    }
    throw new Error(`'${pattern}' compiled for a ${use}`);
  };

  it.each(["/static/*.css", "/t?st", "/a**", "/files/{name}.{ext}", "/v{major:\\d+}", "/p-{id}"])(
    "refuses the partial segment of %s outside policy targets, saying where it is accepted",
    (pattern) => {
      for (const use of ["matcher", "route"] as const) {
        expect(refusal(pattern, use)).toMatch(
          /has a partial-segment wildcard '.+' at index \d+: .* accepted in policy targets only/,
        );
      }
      expect(() => antMatcher(pattern)).toThrow(/accepted in policy targets only/);
      expect(compilePathPattern(pattern, "policy").segments.some((s) => s.kind === "partial")).toBe(true);
    },
  );

  it("converts :name once where routes are written, and nowhere else", () => {
    expect(routePattern("/users/:id/keys/:key-id")).toBe("/users/{id}/keys/{key-id}");
    expect(routePattern("/zt/user:42/:x")).toBe("/zt/user:42/{x}");
    const route = compilePathPattern("/users/:id", "route");
    expect(route.source).toBe("/users/{id}");
    expect(route.segments).toEqual(compilePathPattern("/users/{id}", "policy").segments);
    expect(route.match(splitPath("/users/a%20b"))).toEqual({ id: "a b" });
    // Elsewhere `:id` is a literal segment, as in any path.
    expect(compilePathPattern("/users/:id").segments[1]).toEqual({ kind: "literal", text: ":id" });
    expect(refusal("/users/:1x", "route")).toContain("bad route parameter ':1x'");
  });

  it("compiles a route and a policy target to the same segments, matching the same canonical paths", () => {
    const paths = [
      "/api/orders/7",
      "/api/orders/%37",
      "/api/orders/x",
      "/api/orders",
      "/api/orders/7/items",
      "/",
    ];
    for (const [route, target] of [
      ["/api/orders/:id", "/api/orders/{id}/"],
      ["/api/orders/{id:\\d+}", "/%61pi/orders/{id:\\d+}"],
      ["/api/**", "/api/**"],
      ["/api/orders/*", "/api/orders/*"],
    ] as const) {
      const r = compilePathPattern(route, "route");
      const t = compilePathPattern(target, "policy");
      expect(r.segments).toEqual(t.segments);
      expect(r.source).toBe(t.source);
      for (const path of paths) expect(r.matches(path), `${route} ${path}`).toBe(t.matches(path));
    }
  });

  it("ranks segments for route precedence: literal, then a variable or *, then **", () => {
    expect(compilePathPattern("/a/b/{c}/*/{d:\\d+}/**", "matcher").specificity).toEqual([0, 0, 1, 1, 1, 2]);
    expect(compilePathPattern("/a/{x}", "route").shape).toBe(compilePathPattern("/a/*", "route").shape);
    expect(compilePathPattern("/a/{x:\\d+}", "route").shape).not.toBe(
      compilePathPattern("/a/{x}", "route").shape,
    );
  });

  it("hands a route's * and trailing ** over as sent, and only a route's", () => {
    expect(compilePathPattern("/k/*/x/**", "route").match(splitPath("/k/a%2Fb/x/c/d"))).toEqual({
      "*": "a%2Fb",
      "**": "c/d",
    });
    expect(compilePathPattern("/k/*/x/**", "matcher").match(splitPath("/k/a%2Fb/x/c/d"))).toEqual({});
  });
});

describe("a {name:regex} judges the decoded segment (outside review)", () => {
  it("validates what the handler receives: an escaped '<' is refused, an escaped letter is a letter", () => {
    const route = compilePathPattern("/x/{n:[^<>]+}", "route");
    expect(route.match(splitPath("/x/%3Cscript%3E"))).toBeNull();
    expect(route.match(splitPath("/x/a%20b"))).toEqual({ n: "a b" });
    const letters = compilePathPattern("/api/greek/{a:\\pL+}", "policy");
    expect(letters.matches("/api/greek/%C3%A9")).toBe(true);
    expect(letters.matches("/api/greek/abc")).toBe(true);
    expect(letters.matches("/api/greek/a1")).toBe(false);
    const spaced = compilePathPattern("/api/sp/{a:[a-z ]+}", "policy");
    expect(spaced.matches("/api/sp/a%20b")).toBe(true);
    const partial = compilePathPattern("/files/{name:[a-z ]+}.txt", "policy");
    expect(partial.matches("/files/a%20b.txt")).toBe(true);
  });
});
