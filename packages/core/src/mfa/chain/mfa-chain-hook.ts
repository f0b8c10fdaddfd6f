import type { DependencyContainer } from "tsyringe";
import {
  subjectStatusChecksOf,
  subjectStatusGate,
} from "../../identity/authentication/subject-status-check.js";
import type { Authentication } from "../../identity/authentication/authentication.js";
import type { ChainHook, HookedChain, PrimaryAuthenticationParts } from "../../identity/chain/chain-hook.js";
import { SessionManager } from "../../identity/session/session-manager.js";
import { isBearerAuthentication } from "../../identity/tokens/bearer-authentication.js";
import { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { SecurityConfiguration } from "../../identity/dsl/security-registry.js";
import type { MfaFlows } from "./mfa-flows.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { FACTOR_CATALOG } from "../factor-family/factor-catalog.js";
import { mfaStepEndpoints, nextStepUrl } from "../flow/mfa-answers.js";
import type { MfaFlow } from "../flow/mfa-flow.js";
import { MfaGate } from "../flow/mfa-gate.js";
import { MfaRuntime } from "../flow/mfa-runtime.js";
import { StepUpCoalescer } from "../flow/step-up-coalescer.js";
import type { StartedStepUpFields } from "../step-up/step-up-challenge.js";
import { FactorContextRepository } from "../state/factor-context-repository.js";
import { isTerminal } from "../state/mfa-state.js";

type StepUp = (exchange: HttpExchange, authentication: Authentication) => Promise<StartedStepUpFields>;

/**
 * The MFA plugin's hook on every chain that is not an `.mfa()` chain: no bypass (a single-factor
 * chain hands a challenged user into an MFA flow instead of signing in) and step-up (an
 * authenticated caller denied for want of a recent factor is challenged in the first flow). Both
 * exist only once an `.mfa()` chain does.
 */
export class MfaChainHook implements ChainHook {
  readonly id = "mfa";
  readonly multiFactorKinds = ["mfa"] as const;
  private readonly gates = new Map<MfaFlow, MfaGate>();
  private stepUp: StepUp | undefined;

  constructor(
    private readonly container: DependencyContainer,
    /** The flows of the `.mfa()` chains, in chain order (filled as they are planned). */
    private readonly mfaFlows: MfaFlows,
  ) {}

  private get flows(): readonly MfaFlow[] {
    return this.mfaFlows.all();
  }

  afterPrimaryAuthentication(
    chain: HookedChain,
    parts: PrimaryAuthenticationParts,
  ): Pick<PrimaryAuthenticationParts, "repository" | "successHandler"> | undefined {
    this.assertEveryMfaChainHasAFlow();
    // A chain hands challenged users to the first flow of its own state type (a token chain to a
    // token flow, whose answers are JSON and end in tokens), else to the first flow.
    const flow = this.flows.find((f) => f.stateKind === chain.state) ?? this.flows[0];
    if (!flow) return undefined;
    const gate = this.gates.get(flow) ?? new MfaGate(this.container.resolve(MfaRuntime), flow);
    this.gates.set(flow, gate);
    return {
      repository: gate.repository(parts.repository, { stateless: chain.stateless }),
      successHandler: gate.successHandler(parts.successHandler, parts.failureHandler),
    };
  }

  readonly onAccessDenied = async (
    exchange: HttpExchange,
    authentication: Authentication,
  ): Promise<StartedStepUpFields | undefined> => {
    if (this.flows.length === 0) return undefined;
    this.stepUp ??= this.buildStepUp(this.flows[0]!);
    return this.stepUp(exchange, authentication);
  };

  /**
   * Fails closed: a `.mfa()` chain whose flow was never added (its sign-in method was replaced by one
   * that does not add flows to MfaFlows) would leave every other chain signing in without MFA.
   */
  private assertEveryMfaChainHasAFlow(): void {
    const c = this.container;
    const chains = c.isRegistered(SecurityConfiguration, false)
      ? c.resolve(SecurityConfiguration).chains
      : [];
    const mfaChains = chains.filter((d) => d.kind === "mfa").length;
    if (this.flows.length >= mfaChains) return;
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `${mfaChains} .mfa() chain(s) but ${this.flows.length} MFA flow(s): the "mfa" sign-in method in ` +
        "use adds no flows to MfaFlows, so the other chains could not hand users to MFA",
    );
  }

  private buildStepUp(firstFlow: MfaFlow): StepUp {
    const c = this.container;
    const runtime = c.resolve(MfaRuntime);
    // Members come from later plugins (zero trust); the container is complete by the first request.
    const statusCheck = subjectStatusGate(subjectStatusChecksOf(c));
    const factors = c.resolve(FACTOR_CATALOG);
    const enrolled = (userId: string) => factors.enrolledFor(userId);
    // Concurrent 401s of one sign-in share one challenge (one MFA session, one code).
    const contexts = c.resolve(FactorContextRepository);
    const coalescer = new StepUpCoalescer(c.resolve(Clock), async ({ mfaSessionId }) => {
      const context = await contexts.find(mfaSessionId);
      return context !== undefined && !isTerminal(context.state);
    });
    const sessions = c.resolve(SessionManager);
    return async (exchange, authentication) => {
      // A refused user gets the refusal, not a challenge (no code is sent).
      await statusCheck({ checkpoint: "step-up", authentication, exchange });
      const signIn = isBearerAuthentication(authentication)
        ? `token:${authentication.tokenId}`
        : await sessions.current(exchange).then((s) => (s ? `session:${s.id}` : undefined));
      return coalescer.start(signIn, exchange, async () => {
        const { context, binding } = await runtime.beginStepUp(
          exchange,
          authentication,
          firstFlow,
          await enrolled(authentication.userId),
        );
        return {
          mfaUrl: nextStepUrl(context, firstFlow),
          mfaSessionId: context.mfaSessionId,
          currentState: context.state,
          endpoints: mfaStepEndpoints(firstFlow),
          // A bearer client holds its tokens in the open anyway: it may keep no cookies and send
          // this as X-MFA-Binding. A session's binding stays in the HttpOnly cookie.
          ...(isBearerAuthentication(authentication) ? { mfaBinding: binding } : {}),
        };
      });
    };
  }
}
