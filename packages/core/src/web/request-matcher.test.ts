import { describe, expect, it } from "vitest";
import { isPlatformError } from "../kernel/platform-error.js";
import {
  andMatcher,
  antMatcher,
  anyRequest,
  type HttpMethod,
  notMatcher,
  orMatcher,
  type RequestMatcher,
} from "./request-matcher.js";

const req = (method: string, path: string) => ({ method, path });

function configError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe("antMatcher", () => {
  it.each([
    ["POST", "/login", req("POST", "/login"), true],
    ["POST", "/login", req("post", "/login"), true],
    ["POST", "/login", req("Post", "/login"), true],
    ["POST", "/login", req("GET", "/login"), false],
    ["POST", "/login", req("POST", "/login/"), false],
    ["GET", "/a", req("HEAD", "/a"), true],
    ["HEAD", "/a", req("GET", "/a"), false],
    ["POST", "/a", req("HEAD", "/a"), false],
    ["ANY", "/api/**", req("DELETE", "/api/x"), true],
    ["ANY", "/api/**", req("whatever", "/api"), true],
    ["ANY", "/api/**", req("GET", "/other"), false],
  ] as Array<[HttpMethod | "ANY", string, { method: string; path: string }, boolean]>)(
    "%s %s against %j",
    (method, pattern, request, expected) => {
      expect(antMatcher(pattern, method).matches(request)).toBe(expected);
    },
  );

  it("reads the request's segments when it has them (an exchange's, split once), else splits its path", () => {
    const m = antMatcher("/api/{id}", "GET");
    expect(m.matches({ method: "GET", path: "/api/7", segments: ["api", "7"] })).toBe(true);
    // The segments decide: the path text is not split again.
    expect(m.matches({ method: "GET", path: "/api/7", segments: ["other", "7"] })).toBe(false);
    expect(m.matches({ method: "GET", path: "/api/7" })).toBe(true);
    expect(m.matches({ method: "GET", path: "api/7" })).toBe(false);
  });

  it("defaults to ANY and describes itself", () => {
    const m = antMatcher("/api/**");
    expect(m.description).toBe("ANY /api/**");
    expect(m.matches(req("PATCH", "/api/1"))).toBe(true);
    expect(antMatcher("/login", "POST").description).toBe("POST /login");
  });

  it.each([
    ["bad pattern", () => antMatcher("login")],
    ["bad variable regex", () => antMatcher("/{id:a/b}")],
    ["unknown method", () => antMatcher("/x", "FETCH" as HttpMethod)],
  ])("throws CONFIGURATION_INVALID on %s", (_label, build) => {
    const e = configError(build);
    expect(isPlatformError(e)).toBe(true);
    expect(e).toMatchObject({ code: "CONFIGURATION_INVALID" });
  });
});

describe("combinators", () => {
  const login = antMatcher("/login", "POST");
  const api = antMatcher("/api/**");

  it("anyRequest matches everything", () => {
    const any = anyRequest();
    expect(any.matches(req("GET", "/"))).toBe(true);
    expect(any.matches(req("BREW", "*"))).toBe(true);
    expect(any.description).toBe("any request");
  });

  it("orMatcher matches when one does", () => {
    const m = orMatcher(login, api);
    expect(m.matches(req("POST", "/login"))).toBe(true);
    expect(m.matches(req("GET", "/api/x"))).toBe(true);
    expect(m.matches(req("GET", "/login"))).toBe(false);
    expect(m.description).toBe("(POST /login or ANY /api/**)");
  });

  it("andMatcher matches when all do", () => {
    const m = andMatcher(api, antMatcher("/**", "PUT"));
    expect(m.matches(req("PUT", "/api/x"))).toBe(true);
    expect(m.matches(req("GET", "/api/x"))).toBe(false);
    expect(m.matches(req("PUT", "/x"))).toBe(false);
    expect(m.description).toBe("(ANY /api/** and PUT /**)");
  });

  it("notMatcher inverts", () => {
    const m = notMatcher(orMatcher(login, api));
    expect(m.matches(req("GET", "/home"))).toBe(true);
    expect(m.matches(req("GET", "/api"))).toBe(false);
    expect(m.description).toBe("not (POST /login or ANY /api/**)");
  });

  it("a single operand keeps its own description", () => {
    expect(orMatcher(login).description).toBe("POST /login");
    expect(andMatcher(api).description).toBe("ANY /api/**");
  });

  it("takes a snapshot of its operands", () => {
    const list: RequestMatcher[] = [login];
    const m = orMatcher(...list);
    list.push(api);
    expect(m.matches(req("GET", "/api"))).toBe(false);
  });

  it.each([
    ["orMatcher", () => orMatcher()],
    ["andMatcher", () => andMatcher()],
  ])("%s() with no operand is a configuration error", (name, build) => {
    const e = configError(build);
    expect(isPlatformError(e)).toBe(true);
    expect(e).toMatchObject({ code: "CONFIGURATION_INVALID" });
    expect((e as Error).message).toContain(name);
  });
});
