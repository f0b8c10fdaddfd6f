import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { antMatcher, anyRequest } from "../../web/request-matcher.js";
import { FilterChainProxy } from "./filter-chain-proxy.js";
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
