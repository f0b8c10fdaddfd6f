import type { HttpExchange } from "../../web/http-exchange.js";

/** Continues the chain: the next filter, and after the last one the application route. */
export type NextFilter = () => Promise<void>;

/**
 * One step of a security filter chain. It may answer (commit the exchange) and not call `next`,
 * or call `next` and act after the rest of the chain and the route ran.
 */
export interface SecurityFilter {
  /** Stable name, used by `addFilterBefore/After` and in diagnostics. */
  readonly name: string;
  filter(exchange: HttpExchange, next: NextFilter): Promise<void>;
}
