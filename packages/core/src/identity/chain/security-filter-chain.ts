import type { HttpExchange } from "../../web/http-exchange.js";
import type { RequestMatcher } from "../../web/request-matcher.js";
import type { NextFilter, SecurityFilter } from "./security-filter.js";

const DONE: Promise<void> = Promise.resolve();

/** One authentication method's independent chain: a matcher, an order and its filters. */
export class SecurityFilterChain {
  constructor(
    /** The chain's id, e.g. `form`, `rest`, `mfa_2`. */
    readonly id: string,
    /** Lower runs first; equal orders keep registration order. */
    readonly order: number,
    /** Registration position, the tie-breaker for equal orders. */
    readonly registrationIndex: number,
    readonly matcher: RequestMatcher,
    readonly filters: readonly SecurityFilter[],
  ) {}

  /** True when this chain serves the request. */
  matches(exchange: HttpExchange): boolean {
    return this.matcher.matches(exchange);
  }

  /**
   * Runs the filters in order; `last` (the application route) runs after the last filter. A filter's
   * `next` hands back the rest of the chain's own promise (a settled one once the exchange is
   * committed) instead of wrapping it in one more async function per filter: a request passes some
   * twenty filters, and each extra promise is work (and async-hooks bookkeeping when those are on).
   */
  run(exchange: HttpExchange, last: NextFilter): Promise<void> {
    const filters = this.filters;
    const step = (index: number): Promise<void> => {
      const filter = filters[index];
      if (!filter) return last();
      return filter.filter(exchange, () => {
        if (exchange.response.committed) return DONE;
        try {
          return step(index + 1);
        } catch (error) {
          // As an async `next` would: a filter that throws at once still rejects the promise.
          return Promise.reject(error);
        }
      });
    };
    return step(0);
  }

  /** The filter names in order, for diagnostics and tests. */
  filterNames(): string[] {
    return this.filters.map((f) => f.name);
  }
}

/** Sorts chains by order, lowest first; equal orders keep registration order. */
export function sortChains(chains: readonly SecurityFilterChain[]): SecurityFilterChain[] {
  return [...chains].sort((a, b) => a.order - b.order || a.registrationIndex - b.registrationIndex);
}
