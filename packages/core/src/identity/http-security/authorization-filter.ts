import type { AuditSink } from "../../kernel/audit-sink.js";
import type { EventBus } from "../../kernel/event-bus.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { anyRequest, type PlainMatcher, plainMatcher } from "../../web/request-matcher.js";

/** anyRequest()'s place in the authorization filter's per-rule table: every request. */
const ANY = 1;
import { type Authentication, currentAuthentication } from "../authentication/authentication.js";
import type { NextFilter, SecurityFilter } from "../chain/security-filter.js";
import { correlated } from "../events/correlated.js";
import { ACCESS_DENIED_EVENT, publishWithoutWaiting } from "../events/identity-events.js";
import type { AuthorizationRule } from "./http-security.js";
import type { AuthorizationDecision } from "./authorization-manager.js";

/**
 * Starts a step-up for a signed-in user (a chain hook: the MFA module's starts an MFA flow): the
 * fields the challenge error carries (where to continue, the session begun), or undefined if none.
 */
export type StepUpStarter = (
  exchange: HttpExchange,
  authentication: Authentication,
) => Promise<object | undefined>;

/**
 * Applies the chain's static rules top to bottom (the first matching rule decides); with no rules
 * every request proceeds. A denial answers 401 for anonymous callers and 403 for signed-in ones.
 */
export class AuthorizationFilter implements SecurityFilter {
  readonly name = "authorization";

  constructor(
    /** The chain's static rules, top to bottom (listable: the Policy Center's static-rule import). */
    readonly rules: readonly AuthorizationRule[],
    private readonly audit: AuditSink,
    /** Starts a step-up for a signed-in user (the chain hooks); its fields join the challenge error. */
    private readonly stepUp?: StepUpStarter,
    /** Where each denial is published (ACCESS_DENIED_EVENT, not awaited); none when absent. */
    private readonly events?: EventBus,
  ) {
    this.plains = rules.map((r) => (r.matcher === anyRequest() ? ANY : plainMatcher(r.matcher)));
  }

  /**
   * Per rule, its matcher's method and pattern when it is an antMatcher, ANY for anyRequest() (both
   * tested inline), else undefined.
   */
  private readonly plains: readonly (PlainMatcher | typeof ANY | undefined)[];

  /**
   * The first rule that matches decides: granted, on; refused, `refuse` answers it. No rule, on. Not
   * an async function: a decision the manager answers at once (a static rule's, the PDP's on a cached
   * verdict) goes on to `next` without a promise of its own; one answered as a promise is waited on
   * in `decideLater`; the refusal is a method of its own.
   */
  filter(exchange: HttpExchange, next: NextFilter): Promise<void> {
    try {
      // The first rule that matches; an antMatcher's method and pattern are tested here, not by its
      // closure (the exchange's method is upper case, its segments split once).
      let rule: AuthorizationRule | undefined;
      const rules = this.rules;
      const segments = exchange.segments;
      const method = exchange.method;
      for (let i = 0; i < rules.length && rule === undefined; i++) {
        const r = rules[i] as AuthorizationRule;
        const plain = this.plains[i];
        const hit =
          plain === undefined
            ? r.matcher.matches(exchange)
            : plain === ANY ||
              ((plain.method === undefined ||
                plain.method === method ||
                (plain.method === "GET" && method === "HEAD")) &&
                segments !== undefined &&
                plain.pattern.test(segments));
        if (hit) rule = r;
      }
      if (rule === undefined) return next();
      const authentication = currentAuthentication(exchange);
      const decision = rule.manager.check(authentication, exchange);
      // Any thenable is waited on, as `await` would (a host's promise library, another realm).
      if (typeof (decision as PromiseLike<unknown>).then === "function")
        return this.decideLater(
          exchange,
          next,
          rule,
          authentication,
          decision as PromiseLike<AuthorizationDecision>,
        );
      if (!(decision as AuthorizationDecision).granted)
        return this.refuse(exchange, rule, authentication, decision as AuthorizationDecision);
      return next();
    } catch (error) {
      // As an async function would: a matcher or manager that throws answers a rejection.
      return Promise.reject(error);
    }
  }

  /** The rest of `filter` once a manager's answer, given as a promise, settles. */
  private async decideLater(
    exchange: HttpExchange,
    next: NextFilter,
    rule: AuthorizationRule,
    authentication: Authentication | undefined,
    pending: PromiseLike<AuthorizationDecision>,
  ): Promise<void> {
    const decision = await pending;
    if (!decision.granted) return this.refuse(exchange, rule, authentication, decision);
    await next();
  }

  /** A refused request: audited (unless the manager did), published, answered by what it throws. */
  private async refuse(
    exchange: HttpExchange,
    rule: AuthorizationRule,
    authentication: Authentication | undefined,
    decision: AuthorizationDecision,
  ): Promise<never> {
    if (!decision.audited)
      this.audit.record({
        // Not `authz.denied`: that is the dynamic manager's policy audit trail, which a
        // statically decided request never enters: a static rule that matches decides alone.
        type: "http.access.denied",
        outcome: "denied",
        principal: authentication?.username,
        remoteAddress: exchange.remoteAddress,
        ...correlated(exchange),
        data: {
          path: exchange.path,
          method: exchange.method,
          rule: rule.matcher.description,
          reason: decision.reason,
        },
      });
    publishWithoutWaiting(this.events, ACCESS_DENIED_EVENT, {
      ...(authentication ? { userId: authentication.userId, username: authentication.username } : {}),
      method: exchange.method,
      path: exchange.path,
      ...(exchange.remoteAddress ? { remoteAddress: exchange.remoteAddress } : {}),
      code: authentication ? (decision.code ?? "ACCESS_DENIED") : "AUTHENTICATION_REQUIRED",
      ...correlated(exchange),
    });
    if (!authentication) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    if (decision.stepUp) {
      const started = this.stepUp ? await this.stepUp(exchange, authentication) : undefined;
      throw decision.stepUp.error(started);
    }
    throw new PlatformError(
      decision.code ?? "ACCESS_DENIED",
      decision.message ?? "Access denied",
      decision.details === undefined ? {} : { details: decision.details },
    );
  }
}

/**
 * The static rules of a chain: those of its authorization filter (the filter named `authorization`),
 * top to bottom; none when it has no such filter.
 */
export function staticRulesOf(chain: {
  readonly filters: readonly SecurityFilter[];
}): readonly AuthorizationRule[] {
  const filter = chain.filters.find((f) => f.name === "authorization") as
    | Partial<AuthorizationFilter>
    | undefined;
  return Array.isArray(filter?.rules) ? filter.rules : [];
}
