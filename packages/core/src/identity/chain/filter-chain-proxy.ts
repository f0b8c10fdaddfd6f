import type { HttpExchange } from "../../web/http-exchange.js";
import type { HttpInterceptor } from "../../web/http-interceptor.js";
import { assertPathAllowed } from "./request-firewall.js";
import { type SecurityFilterChain, sortChains } from "./security-filter-chain.js";

/**
 * The security runtime's entry: refuses hostile paths, then serves the request with the first
 * chain (lowest order, then registration order) whose matcher matches. A request no chain matches
 * reaches the route unauthenticated, so public routes need no chain.
 */
export class FilterChainProxy implements HttpInterceptor {
  readonly chains: readonly SecurityFilterChain[];

  constructor(chains: readonly SecurityFilterChain[]) {
    this.chains = sortChains(chains);
  }

  /** The chain that would serve this request, if any. */
  chainFor(exchange: HttpExchange): SecurityFilterChain | undefined {
    return this.chains.find((c) => c.matches(exchange));
  }

  async intercept(exchange: HttpExchange, next: () => Promise<void>): Promise<void> {
    assertPathAllowed(exchange);
    const chain = this.chainFor(exchange);
    if (!chain) return next();
    exchange.attributes.set(CHAIN_ATTRIBUTE, chain.id);
    await chain.run(exchange, next);
  }
}

/** The exchange attribute holding the id of the chain serving the request. */
export const CHAIN_ATTRIBUTE = "platform.chain";
