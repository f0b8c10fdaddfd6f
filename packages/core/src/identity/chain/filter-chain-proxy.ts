import type { HttpExchange } from "../../web/http-exchange.js";
import type { HttpInterceptor } from "../../web/http-interceptor.js";
import { assertPathAllowed } from "./request-firewall.js";
import { type SecurityFilterChain, sortChains } from "./security-filter-chain.js";

/**
 * The security runtime over the chains: refuses hostile paths, then serves the request with the
 * first chain (lowest order, then registration order) whose matcher matches. A request no chain
 * matches reaches the route unauthenticated, so public routes need no chain. The request pipeline
 * runs it in steps (identity's `firewall`, `chain`, `authentication`, `zero-trust-checkpoint`,
 * `entry` and `authorization`); `intercept` runs the same as one interceptor, for a binding of its own.
 */
export class FilterChainProxy implements HttpInterceptor {
  readonly chains: readonly SecurityFilterChain[];

  constructor(chains: readonly SecurityFilterChain[]) {
    this.chains = sortChains(chains);
  }

  /** The chain that would serve this request, if any. */
  chainFor(exchange: HttpExchange): SecurityFilterChain | undefined {
    const chains = this.chains;
    for (let i = 0; i < chains.length; i++) {
      const chain = chains[i] as SecurityFilterChain;
      if (chain.matches(exchange)) return chain;
    }
    return undefined;
  }

  /**
   * Picks the chain for the request and remembers it on the exchange (SELECTED_CHAIN_ATTRIBUTE); the
   * id is kept under CHAIN_ATTRIBUTE too.
   */
  select(exchange: HttpExchange): SecurityFilterChain | undefined {
    const chains = this.chains;
    for (let i = 0; i < chains.length; i++) {
      const chain = chains[i] as SecurityFilterChain;
      if (!chain.matcher.matches(exchange)) continue;
      exchange.attributes.set(CHAIN_ATTRIBUTE, chain.id);
      exchange.attributes.set(SELECTED_CHAIN_ATTRIBUTE, chain);
      return chain;
    }
    return undefined;
  }

  async intercept(exchange: HttpExchange, next: () => Promise<void>): Promise<void> {
    assertPathAllowed(exchange);
    const chain = this.select(exchange);
    if (!chain) return next();
    await chain.run(exchange, next);
  }
}

/** The exchange attribute holding the id of the chain serving the request. */
export const CHAIN_ATTRIBUTE = "platform.chain";

/**
 * The exchange attribute holding the SecurityFilterChain that `select` picked (the request pipeline's
 * chain steps read it directly, on the hot path).
 */
export const SELECTED_CHAIN_ATTRIBUTE = "platform.chain.selected";
