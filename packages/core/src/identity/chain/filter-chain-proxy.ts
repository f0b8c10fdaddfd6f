import type { HttpExchange } from "../../web/http-exchange.js";
import type { HttpInterceptor } from "../../web/http-interceptor.js";
import type { PathPattern } from "../../web/path-pattern.js";
import { pathOnlyPattern } from "../../web/request-matcher.js";
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

  /**
   * Per chain, its matcher's pattern when it is path-only (pathOnlyPattern): `select` (and identity's
   * `chain` step, which inlines it) tests it inline.
   */
  readonly patterns: readonly (PathPattern | undefined)[];

  constructor(chains: readonly SecurityFilterChain[]) {
    this.chains = sortChains(chains);
    this.patterns = this.chains.map((chain) => pathOnlyPattern(chain.matcher));
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

  /** Picks the chain for the request and records it on the exchange (`exchange.match.chain`). */
  select(exchange: HttpExchange): SecurityFilterChain | undefined {
    const chains = this.chains;
    const segments = exchange.segments;
    for (let i = 0; i < chains.length; i++) {
      const chain = chains[i] as SecurityFilterChain;
      const path = this.patterns[i];
      // A path-only matcher, inline (no closure call); on an exchange without segments (a path not
      // starting with `/`) it is false, as the matcher itself would answer.
      if (
        path !== undefined ? segments === undefined || !path.test(segments) : !chain.matcher.matches(exchange)
      )
        continue;
      exchange.match.chain = chain;
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
