import type { DependencyContainer } from "tsyringe";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { type PlainAlternative, type PlainMatcher, plainAlternatives } from "../../web/request-matcher.js";
import type {
  PipelineContribution,
  PipelineNext,
  PipelineStep,
  RequestPipelineContributor,
} from "../../web/request-pipeline.js";
import { currentAuthentication } from "../authentication/authentication.js";
import { SUBJECT_GOES_ON } from "../authentication/subject-status-check.js";
import { FilterChainProxy } from "./filter-chain-proxy.js";
import { assertPathAllowed } from "./request-firewall.js";
import {
  AUTHENTICATION_SEGMENT,
  AUTHORIZATION_SEGMENT,
  type ChainSegment,
  ENTRY_SEGMENT,
  type SecurityFilterChain,
} from "./security-filter-chain.js";

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
  // The chains in selection order and their matchers in compiled form (plainAlternatives), read
  // from the FilterChainProxy at the first request.
  let selection: { chains: readonly SecurityFilterChain[]; alternatives: Alternatives } | undefined;
  const loadSelection = (): NonNullable<typeof selection> => {
    if (!container.isRegistered(FilterChainProxy, true)) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        "The security filter chains are not built yet: call platform.start() before serving requests",
      );
    }
    const { chains } = container.resolve(FilterChainProxy);
    selection = { chains, alternatives: chains.map((chain) => plainAlternatives(chain.matcher)) };
    return selection;
  };
  // FilterChainProxy.select, inline (the `chain` step runs on every request): the first chain whose
  // matcher matches is recorded on the exchange; a matcher in compiled form (plainAlternatives) is
  // tested on the method and segments directly (without segments, the matcher itself is asked).
  const selectChain = (exchange: HttpExchange): void => {
    const { chains, alternatives } = selection ?? loadSelection();
    const segments = exchange.segments;
    const method = exchange.method;
    for (let i = 0; i < chains.length; i++) {
      const chain = chains[i] as SecurityFilterChain;
      const plainsOf = alternatives[i];
      let hit = false;
      if (plainsOf === undefined || segments === undefined) hit = chain.matcher.matches(exchange);
      else {
        for (let k = 0; k < plainsOf.length && !hit; k++) {
          const { plains, negated } = plainsOf[k] as PlainAlternative;
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
      return;
    }
  };
  return [
    { at: "firewall", step: { name: "request-firewall", apply: assertPathAllowed } },
    { at: "chain", step: { name: "select-chain", apply: selectChain } },
    { at: "authentication", step: segmentStep("chain-authentication", AUTHENTICATION_SEGMENT) },
    { at: "zero-trust-checkpoint", step: { name: "request-checkpoint", apply: requestCheckpoint } },
    { at: "entry", step: segmentStep("chain-entry", ENTRY_SEGMENT) },
    { at: "authorization", step: segmentStep("chain-authorization", AUTHORIZATION_SEGMENT) },
  ];
}

/** Per chain, its matcher in compiled form, or undefined (see plainAlternatives). */
type Alternatives = readonly (readonly PlainAlternative[] | undefined)[];

/**
 * An around step running one segment of the selected chain (none selected, or an empty segment:
 * straight on). One function serves the three segments, so a request runs no extra code per segment;
 * the pipeline's continuation is the segment's last step as it is (no closure per request).
 */
function segmentStep(name: string, segment: ChainSegment): PipelineStep {
  return {
    name,
    around: (exchange: HttpExchange, next: PipelineNext): Promise<void> => {
      const chain = exchange.match.chain as SecurityFilterChain | undefined;
      if (chain === undefined) return next(exchange);
      return chain.runSegment(
        exchange,
        chain.bounds[segment] as number,
        chain.bounds[segment + 1] as number,
        next,
      );
    },
  };
}

/** The chain's `request` checkpoint (SecurityFilterChain.check, inline: it runs on every request). */
function requestCheckpoint(exchange: HttpExchange): Promise<void> | undefined {
  const checkpoint = (exchange.match.chain as SecurityFilterChain | undefined)?.checkpoint;
  if (checkpoint === undefined) return undefined;
  const authentication = currentAuthentication(exchange);
  if (authentication === undefined) return undefined;
  if (exchange.method === "POST" && checkpoint.exemptPosts.has(exchange.path)) return undefined;
  const pending = checkpoint.gate({ checkpoint: "request", authentication, exchange });
  // Decided from memory (the shared settled answer): the walk goes on without waiting on it.
  return pending === SUBJECT_GOES_ON ? undefined : pending;
}
