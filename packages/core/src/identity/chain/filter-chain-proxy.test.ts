import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import type { DependencyContainer } from "tsyringe";
import {
  andMatcher,
  antMatcher,
  anyRequest,
  notMatcher,
  orMatcher,
  plainAlternatives,
} from "../../web/request-matcher.js";
import { FilterChainProxy } from "./filter-chain-proxy.js";
import { identityPipelineContributor } from "./identity-pipeline-steps.js";
import { SecurityFilterChain } from "./security-filter-chain.js";

function chain(id: string, order: number, index: number, pattern?: string): SecurityFilterChain {
  return new SecurityFilterChain(id, order, index, pattern ? antMatcher(pattern) : anyRequest(), [
    {
      name: "mark",
      filter: async (ex, next) => {
        ex.attributes.set("servedBy", id);
        await next();
      },
    },
  ]);
}

function exchange(path: string): HttpExchange {
  return new HttpExchange({ method: "GET", url: path, headers: {}, remoteAddress: "127.0.0.1" });
}

async function servedBy(proxy: FilterChainProxy, path: string): Promise<string | undefined> {
  const ex = exchange(path);
  let routeRan = false;
  await proxy.intercept(ex, async () => {
    routeRan = true;
  });
  expect(routeRan).toBe(true);
  return ex.attributes.get("servedBy") as string | undefined;
}

describe("FilterChainProxy", () => {
  it("serves a request with the first matching chain by order", async () => {
    const proxy = new FilterChainProxy([chain("rest", 200, 0, "/api/**"), chain("form", 100, 1, "/**")]);
    expect(proxy.chains.map((c) => c.id)).toEqual(["form", "rest"]);
    expect(await servedBy(proxy, "/api/login")).toBe("form");
  });

  it("lets a chain's matcher decide when orders allow it", async () => {
    const proxy = new FilterChainProxy([chain("form", 100, 0, "/login"), chain("rest", 200, 1, "/api/**")]);
    expect(await servedBy(proxy, "/api/login")).toBe("rest");
    expect(await servedBy(proxy, "/login")).toBe("form");
  });

  it("breaks equal orders by registration order", async () => {
    const proxy = new FilterChainProxy([chain("second", 200, 1), chain("first", 200, 0)]);
    expect(await servedBy(proxy, "/x")).toBe("first");
  });

  it("treats a chain without a matcher as matching every request", async () => {
    const proxy = new FilterChainProxy([chain("all", 300, 0), chain("api", 400, 1, "/api/**")]);
    expect(await servedBy(proxy, "/api/x")).toBe("all");
  });

  it("lets a request no chain matches through unauthenticated", async () => {
    const proxy = new FilterChainProxy([chain("api", 200, 0, "/api/**")]);
    expect(await servedBy(proxy, "/public")).toBeUndefined();
  });

  it.each([
    "//api/x",
    "/a/../api/x",
    "/api/%2e%2e/x",
    "/api/x;jsessionid=1",
    "/api\\x",
    "/api/%2Fx",
    "/a/./b",
  ])("refuses the ambiguous path %s before choosing a chain", async (path) => {
    const proxy = new FilterChainProxy([chain("api", 200, 0, "/api/**")]);
    let code = "none";
    try {
      await proxy.intercept(exchange(path), async () => {});
    } catch (e) {
      code = isPlatformError(e) ? e.code : String(e);
    }
    expect(code).toBe("REQUEST_REJECTED");
  });
});

describe("chain selection of antMatchers and orMatchers of them, inline", () => {
  const claimed = orMatcher(antMatcher("/api/**"), antMatcher("/ott/{t}", "POST"));
  const matchers = [
    orMatcher(antMatcher("/a/**", "GET"), antMatcher("/b/{id}", "POST")),
    orMatcher(andMatcher(antMatcher("/b/**"), antMatcher("/**", "PUT")), antMatcher("/e")),
    orMatcher(notMatcher(claimed), antMatcher("/api/me", "GET"), antMatcher("/api/mfa/**")),
    orMatcher(antMatcher("/c/*"), notMatcher(antMatcher("/**", "DELETE"))),
    antMatcher("/d/{x:[0-9]+}", "PUT"),
    anyRequest(),
  ];
  const chains = matchers.map((m, i) => new SecurityFilterChain(`c${i}`, i, i, m, []));
  const proxy = new FilterChainProxy(chains);
  const steps = identityPipelineContributor.contribute({
    // The step reads the proxy from the container: one that holds it.
    container: { isRegistered: () => true, resolve: () => proxy } as unknown as DependencyContainer,
    needsCallerContext: () => false,
  });
  const chainStep = steps.find((c) => "at" in c && c.at === "chain")?.step;
  const methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "get"];
  const paths = ["/a", "/a/x/y", "/b/1", "/b/1/2", "/c/z", "/d/12", "/d/x", "/", "relative"];
  paths.push("/e", "/api/me", "/api/orders", "/api/mfa/x", "/ott/abc", "/ott/a/b", "/login");

  it("picks what the chains' matchers pick, for every method and path (FilterChainProxy.select and the chain step)", () => {
    for (const method of methods) {
      for (const url of paths) {
        const expected = chains.find((c) =>
          c.matcher.matches(new HttpExchange({ method, url, headers: {}, remoteAddress: "" })),
        )?.id;
        const viaSelect = new HttpExchange({ method, url, headers: {}, remoteAddress: "" });
        expect(proxy.select(viaSelect)?.id, `${method} ${url}`).toBe(expected);
        const viaStep = new HttpExchange({ method, url, headers: {}, remoteAddress: "" });
        void chainStep?.apply?.(viaStep);
        expect(viaStep.match.chain?.id, `${method} ${url} (step)`).toBe(expected);
      }
    }
    // orMatchers of antMatchers and negated ones are compiled; one with an andMatcher member is
    // asked as it is, as is anyRequest().
    expect(
      matchers
        .map((m) => plainAlternatives(m))
        .map((a) => a?.map((x) => `${x.negated ? "!" : ""}${x.plains.length}`)),
    ).toEqual([["1", "1"], undefined, ["!2", "1", "1"], ["1", "!1"], ["1"], undefined]);
  });
});
