import { compilePathPattern, RouteTable } from "@keyward/core/web";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FlatPathTrie } from "../../packages/core/src/authz/pdp/flat-path-trie.js";
import { HttpExchange } from "../../packages/core/src/web/http-exchange.js";
import { bearerHeaders, NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

// A request is matched once (issue 26): its canonical path is split once, where the exchange is made
// (`exchange.segments`), and every matcher it meets reads that one array: the chain matchers, the
// chain's static rules, the PDP's index walk and the route lookup. A matcher that split the path
// again (`PathPattern.matches(path)`, a lookup given only the text) would show here as another array.

let demo: RunningDemo;
let headers: Record<string, string>;

beforeAll(async () => {
  demo = await startDemo({}, NO_MFA_FOR_ADMINS);
  headers = await bearerHeaders(demo.base, "user", "password");
});
afterAll(() => demo.close());

/** Runs `request`, recording every segments array a matcher on the request path was handed. */
async function watching(request: () => Promise<Response>) {
  const pattern = Object.getPrototypeOf(compilePathPattern("/x")) as {
    test(parts: readonly string[]): boolean;
    match(parts: readonly string[]): unknown;
    matches(path: string): boolean;
  };
  const spies = {
    // The binding reads the exchange's headers first (its correlation id): the request's exchange.
    header: vi.spyOn(HttpExchange.prototype, "header"),
    test: vi.spyOn(pattern, "test"),
    match: vi.spyOn(pattern, "match"),
    matches: vi.spyOn(pattern, "matches"),
    index: vi.spyOn(FlatPathTrie.prototype, "collect"),
    route: vi.spyOn(RouteTable.prototype, "match"),
  };
  try {
    const res = await request();
    const exchange = spies.header.mock.contexts[0] as HttpExchange;
    return {
      res,
      exchange,
      patterns: [...spies.test.mock.calls, ...spies.match.mock.calls].map(([parts]) => parts),
      splits: spies.matches.mock.calls.length,
      index: spies.index.mock.calls.map(([parts]) => parts),
      route: spies.route.mock.calls.map(([, , parts]) => parts),
    };
  } finally {
    for (const spy of Object.values(spies)) spy.mockRestore();
  }
}

describe("a request's path is split once", () => {
  it("a bearer GET /api/orders: the chain matcher, the static rules, the PDP's index and the route lookup read one segments array", async () => {
    const seen = await watching(() => fetch(`${demo.base}/api/orders`, { headers }));
    expect(seen.res.status).toBe(200);
    // The chain step recorded the chain it chose.
    expect(seen.exchange.match.chain?.id).toBeDefined();
    const segments = seen.exchange.segments;
    expect(segments).toEqual(["api", "orders"]);
    // Chain matchers and static rules (compiled patterns), at least one each.
    expect(seen.patterns.length).toBeGreaterThanOrEqual(2);
    expect(seen.index.length).toBeGreaterThanOrEqual(1);
    expect(seen.route).toHaveLength(1);
    for (const parts of [...seen.patterns, ...seen.index, ...seen.route]) expect(parts).toBe(segments);
    // Nothing matched on the text (which splits it again).
    expect(seen.splits).toBe(0);
  });

  it("the route lookup records the route's variables on the exchange, decoded once, for the handler", async () => {
    const seen = await watching(() => fetch(`${demo.base}/api/orders/a%20b`, { headers }));
    expect(seen.exchange.segments).toEqual(["api", "orders", "a%20b"]);
    expect(seen.exchange.match.chain).toBeDefined();
    expect(seen.exchange.match.variables).toEqual({ id: "a b" });
    for (const parts of [...seen.patterns, ...seen.index, ...seen.route]) {
      expect(parts).toBe(seen.exchange.segments);
    }
    expect(seen.splits).toBe(0);
  });
});
