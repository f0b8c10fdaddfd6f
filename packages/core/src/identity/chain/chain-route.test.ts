import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { RouteTable } from "../../web/route-table.js";
import { anyRequest } from "../../web/request-matcher.js";
import {
  type ChainRoute,
  ChainRoutesFilter,
  declareChainRoutes,
  routeMount,
  SERVES_ROUTE_LEFT_FOR_LATER,
} from "./chain-route.js";
import type { SecurityFilter } from "./security-filter.js";
import { SecurityFilterChain } from "./security-filter-chain.js";

const route = (method: ChainRoute["method"], path: string, feature = "test"): ChainRoute => ({
  method,
  path,
  name: `${feature}.${method} ${path}`,
  description: "a test route",
  feature,
  access: "public",
  handler: () => ({ served: `${method} ${path}` }),
});

/** A chain: entry points, a gate standing in for authorization (records what reached it), a mount. */
function chainWith(entry: ChainRoute[], mounted: ChainRoute[]) {
  const table = new RouteTable();
  const reached: string[] = [];
  const gate: SecurityFilter = {
    name: "authorization",
    filter: async (exchange, next) => {
      reached.push(exchange.path);
      await next();
    },
  };
  const mount = routeMount({
    name: "api-mount",
    feature: "mounted",
    label: "apiMount()",
    routes: () => mounted,
  });
  mount.attach({} as never);
  declareChainRoutes(table, "c", "entry", entry);
  declareChainRoutes(table, "c", "mounted", mount.routes());
  const chain = new SecurityFilterChain("c", 0, 0, anyRequest(), [
    new ChainRoutesFilter("c", table),
    gate,
    mount,
  ]);
  const send = async (method: string, path: string) => {
    const exchange = new HttpExchange({ method, url: path, headers: {}, remoteAddress: "127.0.0.1" });
    let app = false;
    await chain.run(exchange, async () => {
      app = true;
    });
    return { body: exchange.response.body, app };
  };
  return { send, reached };
}

describe("a chain's routes", () => {
  it("serves entry routes before authorization and mounted routes after it, one lookup each", async () => {
    const c = chainWith([route("POST", "/login")], [route("GET", "/admin/api/x", "mounted")]);
    expect(await c.send("POST", "/login")).toEqual({ body: { served: "POST /login" }, app: false });
    expect(c.reached).toEqual([]);
    expect(await c.send("GET", "/admin/api/x")).toEqual({ body: { served: "GET /admin/api/x" }, app: false });
    expect(c.reached).toEqual(["/admin/api/x"]);
  });

  it("lets every other request through to authorization and the application route", async () => {
    const c = chainWith([route("POST", "/login"), route("GET", "/page")], [route("GET", "/m", "mounted")]);
    for (const [method, path] of [
      ["GET", "/login"],
      ["HEAD", "/page"],
      ["POST", "/m"],
      ["GET", "/elsewhere"],
    ] as const) {
      expect(await c.send(method, path)).toEqual({ body: undefined, app: true });
    }
    expect(c.reached).toEqual(["/login", "/page", "/m", "/elsewhere"]);
  });

  it("refuses to serve a mount that was never attached to a platform", async () => {
    const mount = routeMount({ name: "api-mount", feature: "f", label: "apiMount()", routes: () => [] });
    const exchange = new HttpExchange({ method: "GET", url: "/", headers: {}, remoteAddress: "127.0.0.1" });
    const error = await mount.filter(exchange, async () => {}).catch((e: unknown) => e);
    expect(isPlatformError(error) && error.code).toBe("DEPENDENCY_MISSING");
    expect(() => mount.routes()).toThrow("apiMount() was not attached to a platform");
  });
});

describe("filters that serve only a route left for later", () => {
  it("are skipped, not called, on a request whose lookup left none; a host's own mount is always called", async () => {
    const table = new RouteTable();
    const calls: string[] = [];
    const spy = (name: string, marked: boolean): SecurityFilter => {
      const filter: SecurityFilter = {
        name,
        filter: (_exchange, next) => {
          calls.push(name);
          return next();
        },
      };
      // As AuthorizedEntryRoutesFilter and every routeMount() carry it.
      if (marked) Object.assign(filter, { [SERVES_ROUTE_LEFT_FOR_LATER]: true });
      return filter;
    };
    const mount = routeMount({
      name: "api-mount",
      feature: "mounted",
      label: "apiMount()",
      routes: () => [route("GET", "/m", "mounted")],
    });
    mount.attach({} as never);
    declareChainRoutes(table, "c", "mounted", mount.routes());
    const chain = new SecurityFilterChain("c", 0, 0, anyRequest(), [
      new ChainRoutesFilter("c", table),
      spy("ours", true),
      spy("hosts", false),
      mount,
    ]);
    const send = async (path: string) => {
      const exchange = new HttpExchange({
        method: "GET",
        url: path,
        headers: {},
        remoteAddress: "127.0.0.1",
      });
      let app = false;
      await chain.run(exchange, async () => {
        app = true;
      });
      return { body: exchange.response.body, app };
    };
    expect(await send("/elsewhere")).toEqual({ body: undefined, app: true });
    expect(calls).toEqual(["hosts"]);
    calls.length = 0;
    // A mounted route was left for later: every filter runs, and the mount serves it.
    expect(await send("/m")).toEqual({ body: { served: "GET /m" }, app: false });
    expect(calls).toEqual(["ours", "hosts"]);
  });
});
