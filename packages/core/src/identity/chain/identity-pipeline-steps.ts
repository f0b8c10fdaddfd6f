import type { DependencyContainer } from "tsyringe";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type {
  PipelineContribution,
  PipelineNext,
  RequestPipelineContributor,
} from "../../web/request-pipeline.js";
import { FilterChainProxy, selectedChain } from "./filter-chain-proxy.js";
import { assertPathAllowed } from "./request-firewall.js";
import type { SecurityFilterChain } from "./security-filter-chain.js";

/**
 * Identity's share of the request pipeline: the request firewall, the chain selection, and the
 * chosen chain's filters at `authentication`, `zero-trust-checkpoint` (the `request` checkpoint over
 * every SubjectStatusCheck), `entry` and `authorization`. The FilterChainProxy is built at
 * `platform.start()` (or registered by the host) and read at the first request: a request that
 * arrives before start fails closed (500 CONFIGURATION_INVALID), never an unprotected answer.
 */
export const identityPipelineContributor: RequestPipelineContributor = {
  id: "identity",
  contribute: ({ container }) => identityPipelineSteps(container),
};

function identityPipelineSteps(container: DependencyContainer): PipelineContribution[] {
  let proxy: FilterChainProxy | undefined;
  const proxyOf = (): FilterChainProxy => {
    if (proxy !== undefined) return proxy;
    if (!container.isRegistered(FilterChainProxy, true)) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        "The security filter chains are not built yet: call platform.start() before serving requests",
      );
    }
    proxy = container.resolve(FilterChainProxy);
    return proxy;
  };
  return [
    { at: "firewall", step: { name: "request-firewall", apply: assertPathAllowed } },
    { at: "chain", step: { name: "select-chain", apply: (exchange) => void proxyOf().select(exchange) } },
    { at: "authentication", step: { name: "chain-authentication", around: authenticationSegment } },
    { at: "zero-trust-checkpoint", step: { name: "request-checkpoint", apply: requestCheckpoint } },
    { at: "entry", step: { name: "chain-entry", around: entrySegment } },
    { at: "authorization", step: { name: "chain-authorization", around: authorizationSegment } },
  ];
}

function authenticationSegment(exchange: HttpExchange, next: PipelineNext): Promise<void> {
  const chain = selectedChain(exchange);
  if (chain === undefined || chain.authenticationEnd === 0) return next(exchange);
  return chain.runSegment(exchange, 0, chain.authenticationEnd, () => next(exchange));
}

function requestCheckpoint(exchange: HttpExchange): Promise<void> | undefined {
  return selectedChain(exchange)?.check(exchange);
}

function entrySegment(exchange: HttpExchange, next: PipelineNext): Promise<void> {
  const chain = selectedChain(exchange);
  if (chain === undefined || chain.authorizationStart === chain.authenticationEnd) return next(exchange);
  return chain.runSegment(exchange, chain.authenticationEnd, chain.authorizationStart, () => next(exchange));
}

function authorizationSegment(exchange: HttpExchange, next: PipelineNext): Promise<void> {
  const chain: SecurityFilterChain | undefined = selectedChain(exchange);
  if (chain === undefined || chain.authorizationStart === chain.filters.length) return next(exchange);
  return chain.runSegment(exchange, chain.authorizationStart, chain.filters.length, () => next(exchange));
}
