import { type FactorEndpoint, type FactorEndpoints, factorEndpointsOf } from "./factor-endpoints.js";
import type { AuthenticationResult, FactorType, MfaClientState } from "./types.js";

/** Codes after which the server has ended (or will never accept) the tracked MFA session. */
const ENDED_CODES =
  /^(MFA_SESSION_|MFA_TIMEOUT|MFA_FAILED|MFA_CANCELLED|ACCOUNT_LOCKED|AUTHENTICATION_BLOCKED)/;

/**
 * What the SDK tracks of the MFA flow in progress, in memory only: the MFA session id (sent back as
 * `X-MFA-Session-Id`), the step id when the server gives one, the username of the primary step, the
 * state, the current and available factors and the next page, and the plugin factors' kinds and
 * answer URLs (`endpoints.factors`). Updated from every answer.
 */
export class MfaSessionState {
  private s: MfaClientState = empty();
  private factors: FactorEndpoints = factorEndpointsOf(undefined);

  /** A copy of the tracked state. */
  snapshot(): MfaClientState {
    return { ...this.s, availableFactors: [...this.s.availableFactors] };
  }

  get mfaSessionId(): string | undefined {
    return this.s.mfaSessionId;
  }

  get mfaStepId(): string | undefined {
    return this.s.mfaStepId;
  }

  get username(): string | undefined {
    return this.s.username;
  }

  /** A plugin factor's kind and answer URL, as the flow's last answer named it. */
  factorEndpoint(type: FactorType): FactorEndpoint | undefined {
    // A null-prototype record: a type such as `constructor` finds nothing.
    return this.factors[type];
  }

  /** Takes the plugin factors of an answer's `endpoints` (the step-up's 401 body names them first). */
  adoptFactorEndpoints(endpoints: unknown): void {
    this.factors = factorEndpointsOf(endpoints);
  }

  /** A new primary sign-in: forget the previous flow, remember who signs in. */
  startPrimary(username: string): void {
    this.s = { ...empty(), username };
    this.factors = factorEndpointsOf(undefined);
  }

  /** The MFA session a page names (`data-mfa-session-id`), unless one is tracked already. */
  adoptSessionId(mfaSessionId: string | undefined): void {
    if (mfaSessionId && !this.s.mfaSessionId) this.s.mfaSessionId = mfaSessionId;
  }

  /** Applies a successful answer. `fromStatus` marks `GET status` answers (`allowed` factors). */
  applyAnswer(body: AuthenticationResult, fromStatus = false): void {
    const s = this.s;
    if (typeof body.mfaSessionId === "string" && body.mfaSessionId) s.mfaSessionId = body.mfaSessionId;
    const step = body.mfaStepId ?? body.stepId;
    if (typeof step === "string" && step) s.mfaStepId = step;
    if (body.mfaRequired === true || fromStatus) {
      if (body.endpoints !== undefined) this.adoptFactorEndpoints(body.endpoints);
      if (typeof body.state === "string") s.state = body.state;
      s.currentFactor = factorOrUndefined(body.currentFactor);
      const factors = fromStatus ? body.allowed : body.availableFactors;
      if (Array.isArray(factors))
        s.availableFactors = factors.filter((f): f is FactorType => typeof f === "string");
      if (typeof body.nextStepUrl === "string") s.nextStepUrl = body.nextStepUrl;
      return;
    }
    if (body.success === true) {
      // The flow is over (signed in, or cancelled): its session id must not be sent again.
      this.factors = factorEndpointsOf(undefined);
      this.s = {
        ...empty(),
        username: s.username,
        state: typeof body.state === "string" ? body.state : undefined,
      };
    }
  }

  /** Applies a failure: a code that ends the flow forgets its session id. */
  applyFailure(code: string): void {
    if (!ENDED_CODES.test(code)) return;
    this.s = { ...empty(), username: this.s.username };
    this.factors = factorEndpointsOf(undefined);
  }

  /** Forgets everything. */
  reset(): void {
    this.s = empty();
    this.factors = factorEndpointsOf(undefined);
  }
}

function empty(): MfaClientState {
  return {
    mfaSessionId: undefined,
    mfaStepId: undefined,
    username: undefined,
    state: undefined,
    currentFactor: undefined,
    availableFactors: [],
    nextStepUrl: undefined,
  };
}

function factorOrUndefined(value: unknown): FactorType | undefined {
  return typeof value === "string" && value ? value : undefined;
}
