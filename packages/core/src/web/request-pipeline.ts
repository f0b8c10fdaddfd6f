import type { DependencyContainer, InjectionToken } from "tsyringe";
import { PlatformError } from "../kernel/platform-error.js";
import type { HttpExchange } from "./http-exchange.js";

/**
 * The places of the request pipeline, in the order a request passes them. This list is the one
 * place the order is written down:
 * - `firewall`: refuses ambiguous or hostile paths before anything compares them (identity);
 * - `chain`: picks the security filter chain that serves the request, if any (identity);
 * - `authentication`: the chain's filters up to the security context: headers, CORS, exception
 *   translation, the session or bearer sign-in (identity);
 * - `zero-trust-checkpoint`: the `request` checkpoint, every SubjectStatusCheck (zero trust is one)
 *   asked about the caller once, before any processing filter or route (identity's gate, zero trust's member);
 * - `entry`: CSRF, the sign-in method's processing filters and the chain's entry routes (logout,
 *   sign-in, tokens, `/api/me`) (identity);
 * - `authorization`: the chain's rules (static matchers, then the dynamic manager) and what is
 *   mounted after them (`addFilterAfter(..., "authorization")`) (identity);
 * - `handler`: the application route (the HTTP binding); its result is held, not yet committed;
 * - `answer`: once every step ran, the route's held result is committed as the answer (the end of
 *   the walk, not a step of its own; steps placed before it run first); the binding then writes the
 *   exchange out.
 */
export const REQUEST_PIPELINE_PLACES = [
  "firewall",
  "chain",
  "authentication",
  "zero-trust-checkpoint",
  "entry",
  "authorization",
  "handler",
  "answer",
] as const;

/** A named place of the request pipeline (see REQUEST_PIPELINE_PLACES for the order). */
export type PipelinePlace = (typeof REQUEST_PIPELINE_PLACES)[number];

/** Continues the pipeline after a step: the rest of the steps, then the answer. */
export type PipelineNext = (exchange: HttpExchange) => Promise<void>;

/**
 * One step. A plain step (`apply`) runs and the pipeline goes on, unless it committed the exchange;
 * a synchronous one costs no promise. An around step (`around`) gets `next` (the rest of the
 * pipeline): it may answer without calling it, or act after it (catch, translate, clean up).
 */
export type PipelineStep =
  | {
      readonly name: string;
      readonly apply: (exchange: HttpExchange) => void | Promise<void>;
      readonly around?: undefined;
    }
  | {
      readonly name: string;
      readonly around: (exchange: HttpExchange, next: PipelineNext) => Promise<void>;
      readonly apply?: undefined;
    };

/** Where a step goes: as the place's own step (`at`), or just before or after the place's own steps. */
export type StepPlacement =
  | { readonly at: PipelinePlace }
  | { readonly before: PipelinePlace }
  | { readonly after: PipelinePlace };

/** One step and where it goes. */
export type PipelineContribution = StepPlacement & { readonly step: PipelineStep };

/** What the binding serving the routes tells contributors when the pipeline is assembled. */
export interface PipelineAssembly {
  readonly container: DependencyContainer;
  /** Whether the request's route may call `@Protectable` services (false: 404/405, or it opted out). */
  needsCallerContext(exchange: HttpExchange): boolean;
}

/** A plugin's share of the request pipeline: the steps it owns, placed by name. */
export interface RequestPipelineContributor {
  /** A literal id, for diagnostics (`identity`, `authz`). */
  readonly id: string;
  contribute(assembly: PipelineAssembly): readonly PipelineContribution[];
}

/** DI token of the RequestPipelineContributor family (plugins register members; read in plugin order). */
export const RequestPipelineContributor: InjectionToken<RequestPipelineContributor> = Symbol.for(
  "platform.RequestPipelineContributor",
);

/**
 * The one settled promise a step, a filter or the whole pipeline answers when it finished at once:
 * compared by identity, it tells the caller that nothing is left to wait for (a security filter
 * then settles without a `then`, the HTTP binding writes the answer without one). Core-internal;
 * a binding reads it as `RequestPipeline.DONE`.
 */
export const DONE: Promise<void> = Promise.resolve();
const PLACES: ReadonlySet<string> = new Set(REQUEST_PIPELINE_PLACES);

/**
 * The steps one request runs, in order, assembled once from contributions: for each place, the
 * steps placed `before` it, its own (`at`), then those placed `after` it, each group in contribution
 * order. The runner walks the steps by index; a committed exchange ends the walk (the binding writes
 * it). An unknown place, or a step after `answer`, is a CONFIGURATION_INVALID error.
 */
export class RequestPipeline {
  /**
   * What `run` answers when every step finished at once: the answer can be written without waiting
   * (compared by identity; any other promise is waited on).
   */
  static readonly DONE: Promise<void> = DONE;
  /** Runs the steps for one exchange; never throws synchronously (a throwing step rejects). */
  readonly run: (exchange: HttpExchange) => Promise<void>;
  private readonly steps: readonly PipelineStep[];
  private readonly nexts: readonly PipelineNext[];
  private readonly places: ReadonlySet<PipelinePlace>;

  constructor(contributions: readonly PipelineContribution[]) {
    const { steps, places } = orderSteps(contributions);
    this.steps = steps;
    this.places = places;
    // One continuation per position, made once (a request allocates none to walk the steps), and
    // `run` itself: each is the walk bound to where it starts, so no function of ours sits between.
    this.nexts = steps.map((_, index) => this.walk.bind(this, index + 1));
    this.run = this.walk.bind(this, 0);
  }

  /**
   * Runs the steps from step `from` for one exchange; never throws synchronously (a throwing step
   * rejects). The walk is this one function: a step that returns a promise resumes it through its
   * position's continuation, an around step gets that continuation as its `next`.
   */
  private walk(from: number, exchange: HttpExchange): Promise<void> {
    const steps = this.steps;
    try {
      for (let index = from; index < steps.length; index++) {
        if (exchange.response.committed) return DONE;
        const step = steps[index] as PipelineStep;
        if (step.around !== undefined) return step.around(exchange, this.nexts[index] as PipelineNext);
        const pending = step.apply(exchange);
        if (pending !== undefined)
          return pending.then((this.nexts[index] as PipelineNext).bind(undefined, exchange));
      }
    } catch (error) {
      return Promise.reject(error);
    }
    // The answer: every step ran; the result the route held is committed (the binding writes it).
    const response = exchange.response;
    if (!response.committed && response.body !== undefined) response.committed = true;
    return DONE;
  }

  /** The step names in running order, ending with `answer` (the walk's end), for diagnostics and tests. */
  stepNames(): string[] {
    return [...this.steps.map((s) => s.name), "answer"];
  }

  /** True when some step sits at `place` as its own (e.g. whether identity's steps are in); `answer` always. */
  has(place: PipelinePlace): boolean {
    return this.places.has(place);
  }
}

function placeOf(contribution: StepPlacement): { place: string; slot: 0 | 1 | 2 } {
  if ("at" in contribution) return { place: contribution.at, slot: 1 };
  if ("before" in contribution) return { place: contribution.before, slot: 0 };
  return { place: contribution.after, slot: 2 };
}

function orderSteps(contributions: readonly PipelineContribution[]): {
  steps: PipelineStep[];
  places: Set<PipelinePlace>;
} {
  const slots = new Map<string, [PipelineStep[], PipelineStep[], PipelineStep[]]>();
  for (const place of REQUEST_PIPELINE_PLACES) slots.set(place, [[], [], []]);
  const places = new Set<PipelinePlace>();
  for (const contribution of contributions) {
    const { place, slot } = placeOf(contribution);
    const known = slots.get(place);
    if (!PLACES.has(place) || known === undefined) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `Unknown request pipeline place "${place}" for step ${contribution.step.name}`,
        { details: { places: [...REQUEST_PIPELINE_PLACES] } },
      );
    }
    if (place === "answer" && slot === 2) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `Nothing runs after the answer: place step ${contribution.step.name} before "answer"`,
      );
    }
    if (slot === 1) places.add(place as PipelinePlace);
    known[slot].push(contribution.step);
  }
  places.add("answer");
  const steps = REQUEST_PIPELINE_PLACES.flatMap((place) => slots.get(place)!.flat());
  return { steps, places };
}

/**
 * Holds a route's result as the answer's body (the `handler` place's step calls it): kept, not
 * committed, so steps placed after `handler` see and may replace it. A handler that committed the
 * exchange itself keeps its answer; `undefined` leaves the response as the handler left it.
 */
export function holdResult(exchange: HttpExchange, result: unknown): void {
  const response = exchange.response;
  if (!response.committed && result !== undefined) response.body = result as typeof response.body;
}

/** Every contributor's steps, in plugin order, for one binding. */
export function contributedSteps(
  container: DependencyContainer,
  assembly: PipelineAssembly,
): PipelineContribution[] {
  const contributors = container.isRegistered(RequestPipelineContributor, true)
    ? container.resolveAll(RequestPipelineContributor)
    : [];
  return contributors.flatMap((c) => c.contribute(assembly));
}
