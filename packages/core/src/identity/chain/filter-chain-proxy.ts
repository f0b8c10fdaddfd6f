import type { HttpExchange } from "../../web/http-exchange.js";
import type { HttpInterceptor } from "../../web/http-interceptor.js";
import { type PlainAlternative, type PlainMatcher, plainAlternatives } from "../../web/request-matcher.js";
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
   * Per chain, its matcher in compiled form (plainAlternatives: antMatchers, orMatchers of them and
   * of their negations), else undefined: `select` (and identity's `chain` step, which inlines it and
   * compiles its own) tests the methods and patterns inline.
   */
  private readonly alternatives: readonly (readonly PlainAlternative[] | undefined)[];

  constructor(chains: readonly SecurityFilterChain[]) {
    this.chains = sortChains(chains);
    this.alternatives = this.chains.map((chain) => plainAlternatives(chain.matcher));
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
    const method = exchange.method;
    for (let i = 0; i < chains.length; i++) {
      const chain = chains[i] as SecurityFilterChain;
      const alternatives = this.alternatives[i];
      // The matcher's compiled form (plainAlternatives), inline (no closure call): the exchange's
      // method is upper case and a GET member takes HEAD, as antMatcher does; an exchange without
      // segments (a path not starting with `/`, which the firewall refuses) asks the matcher itself.
      let hit = false;
      if (alternatives === undefined || segments === undefined) hit = chain.matcher.matches(exchange);
      else {
        for (let k = 0; k < alternatives.length && !hit; k++) {
          const { plains, negated } = alternatives[k] as PlainAlternative;
          let any = false;
          for (let j = 0; j < plains.length && !any; j++) {
            const a = plains[j] as PlainMatcher;
            any =
              (a.method === undefined || a.method === method || (a.method === "GET" && method === "HEAD")) &&
              a.pattern.test(segments);
          }
          hit = any !== negated;
        }
      }
      if (!hit) continue;
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
