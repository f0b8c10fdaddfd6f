import type { HttpExchange } from "../../web/http-exchange.js";
import type { RequestMatcher } from "../../web/request-matcher.js";
import { currentAuthentication } from "../authentication/authentication.js";
import type { SubjectStatusGate } from "../authentication/subject-status-check.js";
import { routesLeftForLater, SERVES_ROUTE_LEFT_FOR_LATER } from "./chain-route.js";
import type { NextFilter, SecurityFilter } from "./security-filter.js";
import { DONE } from "../../web/request-pipeline.js";

/**
 * The `request` checkpoint of a chain: the gate every authenticated request passes once its
 * security context is loaded, and the requests it never refuses (the chain's logout, so a refused
 * user can always sign out).
 */
export interface RequestCheckpoint {
  readonly gate: SubjectStatusGate;
  /**
   * The canonical paths whose POST the checkpoint never refuses (the chain's logout, token
   * revocation): data, not a predicate, so the check runs no function of its own per request.
   */
  readonly exemptPosts: ReadonlySet<string>;
}

/** A segment of a chain's filters, an index into `SecurityFilterChain.bounds`. */
export type ChainSegment = 0 | 1 | 2;
/** Up to and including the security context: the pipeline's `authentication` place. */
export const AUTHENTICATION_SEGMENT: ChainSegment = 0;
/** After the checkpoint, up to the authorization filter: CSRF, processing filters, entry routes (`entry`). */
export const ENTRY_SEGMENT: ChainSegment = 1;
/** From the authorization filter on, mounts included (`authorization`). */
export const AUTHORIZATION_SEGMENT: ChainSegment = 2;

/** Name of the filter that loads the security context: the authentication segment ends with it. */
const SECURITY_CONTEXT_FILTER = "security-context";
/** Name of the filter that applies the chain's rules: the authorization segment starts with it. */
const AUTHORIZATION_FILTER = "authorization";

/**
 * One authentication method's independent chain: a matcher, an order and its filters. Its filters
 * fall in the request pipeline's places: up to the security context `authentication`, then the
 * `request` checkpoint (`zero-trust-checkpoint`), up to the authorization filter `entry` (CSRF,
 * processing filters, entry routes), from it on `authorization`.
 */
export class SecurityFilterChain {
  /** End (exclusive) of the authentication segment: just past the security-context filter. */
  readonly authenticationEnd: number;
  /** Start of the authorization segment: the authorization filter (the end when there is none). */
  readonly authorizationStart: number;
  /** Where the segments start and end: segment `k` runs filters `bounds[k]` to `bounds[k + 1]` (exclusive). */
  readonly bounds: readonly [number, number, number, number];
  /** Per filter, whether it serves only a route left for later (see SERVES_ROUTE_LEFT_FOR_LATER). */
  private readonly servesLeftOver: readonly boolean[];

  constructor(
    /** The chain's id, e.g. `form`, `rest`, `mfa_2`. */
    readonly id: string,
    /** Lower runs first; equal orders keep registration order. */
    readonly order: number,
    /** Registration position, the tie-breaker for equal orders. */
    readonly registrationIndex: number,
    readonly matcher: RequestMatcher,
    readonly filters: readonly SecurityFilter[],
    /** The `request` checkpoint after the security context; none: no checkpoint. */
    readonly checkpoint?: RequestCheckpoint,
  ) {
    const names = filters.map((f) => f.name);
    this.authenticationEnd = names.indexOf(SECURITY_CONTEXT_FILTER) + 1;
    const authorization = names.indexOf(AUTHORIZATION_FILTER, this.authenticationEnd);
    this.authorizationStart = authorization === -1 ? filters.length : authorization;
    this.bounds = [0, this.authenticationEnd, this.authorizationStart, filters.length];
    this.servesLeftOver = filters.map(
      (f) => (f as { [SERVES_ROUTE_LEFT_FOR_LATER]?: unknown })[SERVES_ROUTE_LEFT_FOR_LATER] === true,
    );
  }

  /** True when this chain serves the request. */
  matches(exchange: HttpExchange): boolean {
    return this.matcher.matches(exchange);
  }

  /**
   * Runs every filter, with the `request` checkpoint after the security context; `last` (the
   * application route) runs after the last filter. This is the whole chain as one interceptor
   * (FilterChainProxy); the request pipeline runs the same segments at its places.
   */
  run(exchange: HttpExchange, last: NextFilter): Promise<void> {
    return this.runSegment(exchange, 0, this.authenticationEnd, () => {
      const checked = this.check(exchange);
      const rest = (): Promise<void> =>
        this.runSegment(exchange, this.authenticationEnd, this.filters.length, last);
      return checked === undefined ? rest() : checked.then(rest);
    });
  }

  /**
   * The `request` checkpoint for this exchange: undefined when there is nothing to ask (no caller, no
   * checkpoint, an exempt request), else the gate's promise (rejects with its refusal).
   */
  check(exchange: HttpExchange): Promise<void> | undefined {
    const checkpoint = this.checkpoint;
    if (checkpoint === undefined) return undefined;
    const authentication = currentAuthentication(exchange);
    if (authentication === undefined) return undefined;
    if (exchange.method === "POST" && checkpoint.exemptPosts.has(exchange.path)) return undefined;
    return checkpoint.gate({ checkpoint: "request", authentication, exchange });
  }

  /**
   * Runs the filters `from` (inclusive) to `to` (exclusive), then `last(exchange)`. A filter's `next`
   * hands back the rest of the segment's own promise (a settled one once the exchange is committed)
   * instead of wrapping it in one more async function per filter: a request passes some twenty
   * filters, and each extra promise is work (and async-hooks bookkeeping when those are on). The
   * method is its own loop (one function and one `next` per filter on the request path); `last` takes
   * the exchange, so a pipeline continuation is handed over as it is.
   */
  runSegment(
    exchange: HttpExchange,
    from: number,
    to: number,
    last: (exchange: HttpExchange) => Promise<void>,
  ): Promise<void> {
    // A filter that serves only a route left for later is skipped, not called, when none was left.
    while (from < to && this.servesLeftOver[from] === true && !routesLeftForLater.has(exchange)) from++;
    if (from >= to) return last(exchange);
    return (this.filters[from] as SecurityFilter).filter(exchange, () => {
      if (exchange.response.committed) return DONE;
      try {
        return this.runSegment(exchange, from + 1, to, last);
      } catch (error) {
        // As an async `next` would: a filter that throws at once still rejects the promise.
        return Promise.reject(error);
      }
    });
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
