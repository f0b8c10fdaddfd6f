import type { HttpExchange } from "../../web/http-exchange.js";
import { RouteTable } from "../../web/route-table.js";
import {
  AuthorizedEntryRoutesFilter,
  type ChainRoute,
  ChainRoutesFilter,
  declareChainRoutes,
} from "./chain-route.js";

/**
 * Serves `routes` as one chain's entry points do (one table lookup, exact method, canonical path),
 * for tests of a route's handlers: `fellThrough` is true when no route took the request. Routes for
 * administrators are served as after a chain's authorization that granted them.
 */
export function chainRoutesRunner(
  routes: readonly ChainRoute[],
): (exchange: HttpExchange) => Promise<{ exchange: HttpExchange; fellThrough: boolean }> {
  const table = new RouteTable();
  declareChainRoutes(table, "test", "entry", routes);
  const entry = new ChainRoutesFilter("test", table);
  const authorized = new AuthorizedEntryRoutesFilter();
  return async (exchange) => {
    let fellThrough = false;
    await entry.filter(exchange, () =>
      authorized.filter(exchange, async () => {
        fellThrough = true;
      }),
    );
    return { exchange, fellThrough };
  };
}

/** Serves `routes` for one exchange as a chain's entry points do; `next` runs when none takes it. */
export async function serveRoutes(
  routes: readonly ChainRoute[],
  exchange: HttpExchange,
  next: () => Promise<void>,
): Promise<void> {
  const table = new RouteTable();
  declareChainRoutes(table, "test", "entry", routes);
  const authorized = new AuthorizedEntryRoutesFilter();
  await new ChainRoutesFilter("test", table).filter(exchange, () => authorized.filter(exchange, next));
}
