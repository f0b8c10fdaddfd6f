import {
  type Authentication,
  setCurrentAuthentication,
} from "../../identity/authentication/authentication.js";
import type { SecurityContextRepository } from "../../identity/context/security-context-repository.js";
import type { LoginContext } from "../../identity/handlers/authentication-handlers.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { MfaEscalatedAnswer, MfaRequiredAnswer, MfaStepEndpoints } from "../../web/wire/mfa-messages.js";
import type { FactorContext } from "../state/factor-context.js";
import type { FactorDescription } from "../factor-family/factor.js";
import { selectableFactors } from "../state/factor-context.js";
import { MFA_BINDING_HEADER } from "./mfa-caller-binding.js";
import type { MfaFlow } from "./mfa-flow.js";
import type { MfaRuntime } from "./mfa-runtime.js";

/** The JSON endpoints of a flow's MFA steps (absolute paths; see the wire type). */
export type { MfaStepEndpoints };

/** The step endpoints of `flow` (see {@link MfaStepEndpoints}). */
export function mfaStepEndpoints(flow: MfaFlow): MfaStepEndpoints {
  const { urls } = flow;
  const endpoints: MfaStepEndpoints = {
    status: urls.status,
    selectFactor: urls.selectFactor,
    cancel: urls.cancel,
  };
  for (const member of flow.factorMembers) {
    if (member.challengeState === "OTT_CHALLENGE") {
      endpoints.verifyOtt = urls.ottLoginProcessing;
      endpoints.generateCode = urls.ottGenerateCode;
    } else if (member.challengeState === "PASSKEY_CHALLENGE") {
      endpoints.passkeyOptions = urls.passkeyAssertionOptions;
      endpoints.verifyPasskey = urls.passkeyLoginProcessing;
    }
  }
  // A generic factor's answer URL and kind, only when the flow has one (built-in answers unchanged).
  const generic = flow.factorMembers.filter((m) => flow.factorUrls[m.type] !== undefined);
  if (generic.length > 0) {
    endpoints.factors = Object.fromEntries(
      generic.map((m) => [m.type, { kind: m.kind, verify: flow.factorUrls[m.type]?.verify ?? "" }]),
    );
  }
  return endpoints;
}

/**
 * True when an MFA answer goes out as JSON: a JSON client (`wantsJson`), or a caller that presents its
 * binding in `X-MFA-Binding` (only API clients do; they never follow a redirect to a page).
 */
export function answersMfaJson(exchange: HttpExchange): boolean {
  return exchange.wantsJson() || Boolean(exchange.header(MFA_BINDING_HEADER));
}

/** Where the browser goes next for this flow state. */
export function nextStepUrl(ctx: FactorContext, flow: MfaFlow): string {
  switch (ctx.state) {
    case "AWAITING_CHALLENGE_INITIATION":
      return flow.urls.ottRequestCodePage;
    case "OTT_CHALLENGE":
      return flow.urls.ottChallengePage;
    case "PASSKEY_CHALLENGE":
      return flow.urls.passkeyChallengePage;
    case "FACTOR_CHALLENGE":
      return flow.factorUrls[ctx.currentFactor ?? ""]?.challengePage ?? flow.urls.selectFactorPage;
    case "FACTOR_SELECTION":
      return flow.urls.selectFactorPage;
    default:
      return `${flow.urls.failurePage}?state=${ctx.state}`;
  }
}

/**
 * The "MFA required" answer: JSON `{ mfaRequired: true, selectFactorUrl, mfaSessionId }` plus
 * status, nextStepUrl, progress, factors and the step `endpoints`; browsers are redirected to the next
 * step's page. A token (`.oauth2()`) flow's first answer also carries `mfaBinding` (the binding cookie's
 * value, for clients without cookies: they send it as `X-MFA-Binding`); its final answer puts tokens in
 * the body anyway. A session flow's binding stays in the HttpOnly cookie.
 */
export function writeMfaStep(
  exchange: HttpExchange,
  ctx: FactorContext,
  flow: MfaFlow,
  first: boolean,
  binding?: string,
): void {
  const next = nextStepUrl(ctx, flow);
  if (!answersMfaJson(exchange)) {
    exchange.redirect(next);
    return;
  }
  exchange.response.headers.set("cache-control", "no-store");
  const answer: MfaRequiredAnswer = {
    mfaRequired: true,
    selectFactorUrl: flow.urls.selectFactorPage,
    mfaSessionId: ctx.mfaSessionId,
    status: first ? "MFA_REQUIRED" : "MFA_CONTINUE",
    state: ctx.state,
    nextStepUrl: next,
    currentFactor: ctx.currentFactor ?? null,
    availableFactors: selectableFactors(ctx),
    progress: { current: ctx.completedFactors.length, total: ctx.requiredFactors },
    endpoints: mfaStepEndpoints(flow),
    ...(binding !== undefined && flow.stateKind === "oauth2" ? { mfaBinding: binding } : {}),
  };
  exchange.json(200, answer);
}

/**
 * An ESCALATED login waits for administrator review: 202 `{ escalated: true, status: "PENDING",
 * statusUrl, retryAfterSeconds }`; the client polls `statusUrl` (bound by its cookie) until an
 * administrator approves (the poll signs it in) or rejects it (403). A token (`.oauth2()`) flow's
 * answer also carries `mfaBinding`, which a client without cookies sends as `X-MFA-Binding` when polling.
 */
export function writeEscalated(exchange: HttpExchange, flow: MfaFlow, binding?: string): void {
  exchange.response.headers.set("cache-control", "no-store");
  exchange.response.headers.set("retry-after", "5");
  const answer: MfaEscalatedAnswer = {
    escalated: true,
    status: "PENDING",
    statusUrl: escalationStatusUrl(flow),
    retryAfterSeconds: 5,
    message: "Your sign-in is waiting for an administrator's review",
    ...(binding !== undefined && flow.stateKind === "oauth2" ? { mfaBinding: binding } : {}),
  };
  exchange.json(202, answer);
}

/** Where a flow's escalated callers poll. */
export function escalationStatusUrl(flow: MfaFlow): string {
  return `${flow.urls.urlPrefix ?? ""}/api/mfa/escalation`;
}

/** The `amr` factors a flow's completed factors prove (each member's `proves`; `otp` if unknown). */
export function provedFactors(
  ctx: FactorContext,
  members: readonly FactorDescription[],
): Authentication["factors"] {
  return ctx.completedFactors.map((f) => ({
    type: members.find((m) => m.type === f.type)?.proves ?? "otp",
    at: f.at,
  }));
}

/** The final authentication of a completed flow: the primary's identity plus every verified factor. */
export function finalAuthentication(
  ctx: FactorContext,
  members: readonly FactorDescription[],
): Authentication {
  return {
    ...ctx.primary,
    method: "mfa",
    factors: [...ctx.primary.factors, ...provedFactors(ctx, members)],
  };
}

/**
 * Completes sign-in: the final step saves the context by state type (a session is rotated; `.oauth2()`
 * issues tokens in its success handler), the MFA session is forgotten, the flow's success handler answers.
 */
export async function completeSignIn(
  exchange: HttpExchange,
  authentication: Authentication,
  flow: MfaFlow,
  finalRepository: SecurityContextRepository,
  context: LoginContext,
  runtime?: MfaRuntime,
): Promise<void> {
  // Token answers (`.oauth2()` flows) set no device cookie: a bearer client is always a new device.
  await runtime?.recordSignIn(exchange, authentication, flow.stateKind === "session");
  await finalRepository.save(exchange, authentication);
  setCurrentAuthentication(exchange, authentication);
  await flow.successHandler.onSuccess(exchange, authentication, context);
}

/** Completes a flow that reached MFA_SUCCESSFUL. */
export async function completeFlow(
  exchange: HttpExchange,
  ctx: FactorContext,
  flow: MfaFlow,
  runtime: MfaRuntime,
  finalRepository: SecurityContextRepository,
  context: LoginContext,
): Promise<void> {
  await runtime.finish(exchange, ctx);
  await completeSignIn(
    exchange,
    finalAuthentication(ctx, flow.factorMembers),
    flow,
    finalRepository,
    context,
    runtime,
  );
}
