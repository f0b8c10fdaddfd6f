import type { Authentication } from "../../identity/authentication/authentication.js";
import { correlated } from "../../identity/events/correlated.js";
import type { AuditEvent, AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import type { EventBus } from "../../kernel/event-bus.js";
import type { IdGenerator } from "../../kernel/id-generator.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { DEFAULT_ESCALATION_TTL_MS, type Escalation } from "./escalation.js";
import { EscalationCallerBinding } from "./escalation-caller-binding.js";
import { ESCALATION_EVENTS, type EscalationEventPayload } from "./escalation-events.js";
import type { EscalationStore } from "./escalation-store.js";
import { floorRoleOf, provesSecondFactor } from "../flow/second-factor-floor.js";

/** The authority an administrator needs to list, approve and reject escalations. */
export const ESCALATION_ADMIN_AUTHORITY = "ROLE_ADMIN";

/** How long the binding cookie outlives `expiresAt`, so a late poll still hears EXPIRED: 5 minutes. */
const COOKIE_GRACE_SECONDS = 300;

/** Options of the EscalationService. */
export interface EscalationServiceOptions {
  store: EscalationStore;
  clock: Clock;
  /** Escalation ids (`secret(16)`) and binding secrets. */
  ids: IdGenerator;
  audit: AuditSink;
  events: EventBus;
  /** How long an escalation waits for a decision and an approval for its poll. Default 30 min. */
  ttlMs?: number;
  /**
   * The second-factor floor (`platform.auth.mfa.requiredAuthorities` unless lifted): a held sign-in of
   * a holder that proved no second factor is never held, approved or completed. Default empty.
   */
  secondFactorFloor?: readonly string[];
}

/** What a poll found: the caller's escalation, and whether this very poll completed it (single use). */
export interface EscalationPoll {
  escalation: Escalation;
  /** True for exactly one poll of an approved escalation: the caller must now sign the user in. */
  completed: boolean;
}

type Decision = "APPROVED" | "REJECTED";

/**
 * Holds logins the MFA policy escalated until an administrator decides (ESCALATED: "only
 * administrators can resolve"). Decisions need ROLE_ADMIN, never apply to the admin's own login, and
 * are compare-and-set, so of two concurrent decisions exactly one wins. The held caller polls with
 * its binding cookie; the first poll after an approval completes the escalation, once.
 */
export class EscalationService {
  private readonly binding: EscalationCallerBinding;
  private readonly ttlMs: number;

  constructor(private readonly o: EscalationServiceOptions) {
    this.binding = new EscalationCallerBinding(o.ids);
    this.ttlMs = o.ttlMs ?? DEFAULT_ESCALATION_TTL_MS;
    if (!(this.ttlMs > 0)) throw new PlatformError("CONFIGURATION_INVALID", "ttlMs must be positive");
  }

  /** Holds this login for review: stores a PENDING escalation and binds it to the caller by cookie. */
  async open(
    exchange: HttpExchange,
    primary: Authentication,
    flowTypeName: string,
    reason: string,
  ): Promise<Escalation> {
    return (await this.hold(exchange, primary, flowTypeName, reason)).escalation;
  }

  /**
   * As {@link open}, also returning the binding's value (`<id>.<secret>`, the cookie's), which a client
   * without cookies presents as `X-MFA-Binding` when it polls.
   */
  async hold(
    exchange: HttpExchange,
    primary: Authentication,
    flowTypeName: string,
    reason: string,
  ): Promise<{ escalation: Escalation; binding: string }> {
    if (this.lacksSecondFactor(primary)) {
      throw new PlatformError("AUTHENTICATION_BLOCKED", "This sign-in needs a second factor, not a review");
    }
    const id = this.o.ids.secret(16);
    const now = this.o.clock.now();
    const maxAge = Math.ceil(this.ttlMs / 1000) + COOKIE_GRACE_SECONDS;
    const issued = this.binding.issue(exchange, id, maxAge);
    const escalation = await this.o.store.create({
      id,
      userId: primary.userId,
      username: primary.username,
      primary,
      flowTypeName,
      reason,
      status: "PENDING",
      createdAt: now,
      expiresAt: now + this.ttlMs,
      callerBinding: issued.stored,
      remoteAddress: exchange.remoteAddress,
      version: 1,
    });
    this.audit(escalation, {
      type: "auth.mfa.escalation-opened",
      outcome: "info",
      principal: escalation.username,
      ...correlated(exchange),
    });
    await this.publish(ESCALATION_EVENTS.opened, escalation);
    return { escalation, binding: issued.value };
  }

  /** The pending escalations, oldest first; ACCESS_DENIED unless `admin` holds ROLE_ADMIN. */
  async listPending(admin: Authentication): Promise<Escalation[]> {
    this.requireAdmin(admin, undefined);
    return this.o.store.listPending();
  }

  /** Approves a pending escalation: its caller's next poll signs the user in. */
  approve(id: string, admin: Authentication): Promise<Escalation> {
    return this.decide(id, admin, "APPROVED");
  }

  /** Rejects a pending escalation: its caller's next poll is denied. */
  reject(id: string, admin: Authentication): Promise<Escalation> {
    return this.decide(id, admin, "REJECTED");
  }

  /**
   * The caller's escalation, found by its binding (the `X-MFA-Binding` header, else the cookie). PENDING, REJECTED, EXPIRED and COMPLETED
   * are returned as they are; APPROVED becomes COMPLETED here, and only the poll that wins that write
   * gets `completed: true`. A final status clears the cookie. Throws MFA_SESSION_REQUIRED when the
   * caller has no cookie, the escalation is gone, or the cookie's secret does not match.
   */
  async poll(exchange: HttpExchange): Promise<EscalationPoll> {
    const id = this.binding.escalationIdOf(exchange);
    const found = id === undefined ? undefined : await this.o.store.find(id);
    if (!found || !this.binding.matches(exchange, found.id, found.callerBinding)) {
      if (found) {
        this.audit(found, {
          type: "auth.mfa.escalation-binding-invalid",
          outcome: "denied",
          remoteAddress: exchange.remoteAddress,
          ...correlated(exchange),
        });
      }
      throw new PlatformError("MFA_SESSION_REQUIRED", "No escalated login is held for this client");
    }
    if (found.status === "PENDING") return { escalation: found, completed: false };
    this.binding.clear(exchange);
    if (found.status !== "APPROVED") return { escalation: found, completed: false };
    if (this.lacksSecondFactor(found.primary)) {
      // Held before the floor applied (or written by another writer): an approval never replaces the factor.
      throw new PlatformError("AUTHENTICATION_BLOCKED", "This sign-in needs a second factor; sign in again");
    }
    let completed: Escalation;
    try {
      completed = await this.o.store.compareAndSet({ ...found, status: "COMPLETED" });
    } catch (error) {
      if (!isPlatformError(error) || error.code !== "CONFLICT") throw error;
      const now = await this.o.store.find(found.id);
      if (!now) throw new PlatformError("MFA_SESSION_REQUIRED", "No escalated login is held for this client");
      return { escalation: now, completed: false };
    }
    this.audit(completed, {
      type: "auth.mfa.escalation-completed",
      outcome: "success",
      principal: completed.username,
      remoteAddress: exchange.remoteAddress,
      ...correlated(exchange),
    });
    return { escalation: completed, completed: true };
  }

  /**
   * Ends the caller's held escalation at logout: a PENDING or APPROVED one becomes EXPIRED by
   * compare-and-set (retried over concurrent decisions), so no later decision or poll, from this
   * client or from a copy of its cookie, completes it; the cookie is cleared. A cookie without the
   * escalation's secret changes nothing (but is cleared). One a poll already completed stays COMPLETED.
   */
  async cancel(exchange: HttpExchange): Promise<void> {
    const id = this.binding.escalationIdOf(exchange);
    if (id === undefined) return;
    this.binding.clear(exchange);
    for (let attempt = 0; attempt < 3; attempt++) {
      const found = await this.o.store.find(id);
      if (!found || !this.binding.matches(exchange, found.id, found.callerBinding)) return;
      if (found.status !== "PENDING" && found.status !== "APPROVED") return;
      try {
        const ended = await this.o.store.compareAndSet({ ...found, status: "EXPIRED" });
        this.audit(ended, {
          type: "auth.mfa.escalation-cancelled",
          outcome: "info",
          principal: ended.username,
          remoteAddress: exchange.remoteAddress,
          ...correlated(exchange),
        });
        return;
      } catch (error) {
        // A decision or a poll moved it meanwhile: read it again and end what is left.
        if (!isPlatformError(error) || error.code !== "CONFLICT") throw error;
      }
    }
  }

  private async decide(id: string, admin: Authentication, to: Decision): Promise<Escalation> {
    this.requireAdmin(admin, id);
    const current = await this.o.store.find(id);
    if (!current) throw new PlatformError("NOT_FOUND", "No such escalation");
    if (current.userId === admin.userId || current.username === admin.username) {
      this.audit(current, {
        type: "auth.mfa.escalation-denied",
        outcome: "denied",
        principal: admin.username,
        data: { reason: "own-escalation" },
      });
      throw new PlatformError("ACCESS_DENIED", "Nobody may approve or reject their own escalated login");
    }
    if (current.status !== "PENDING") throw notPending(current.status);
    if (to === "APPROVED" && this.lacksSecondFactor(current.primary)) {
      this.audit(current, {
        type: "auth.mfa.escalation-denied",
        outcome: "denied",
        principal: admin.username,
        data: { reason: "second-factor-missing" },
      });
      throw new PlatformError(
        "ACCESS_DENIED",
        "This held sign-in proved no second factor, which its role requires; reject it instead",
      );
    }
    let decided: Escalation;
    try {
      decided = await this.o.store.compareAndSet({
        ...current,
        status: to,
        decidedBy: admin.username,
        decidedAt: this.o.clock.now(),
      });
    } catch (error) {
      if (!isPlatformError(error) || error.code !== "CONFLICT") throw error;
      const now = await this.o.store.find(id);
      throw notPending(now?.status ?? "EXPIRED", error);
    }
    const approved = to === "APPROVED";
    this.audit(decided, {
      type: approved ? "auth.mfa.escalation-approved" : "auth.mfa.escalation-rejected",
      outcome: "success",
      principal: admin.username,
    });
    await this.publish(approved ? ESCALATION_EVENTS.approved : ESCALATION_EVENTS.rejected, decided);
    return decided;
  }

  /** True for a floor-role holder's sign-in that proved the password (or one factor) only. */
  private lacksSecondFactor(primary: Authentication): boolean {
    return floorRoleOf(primary, this.o.secondFactorFloor) !== undefined && !provesSecondFactor(primary);
  }

  private requireAdmin(admin: Authentication, escalationId: string | undefined): void {
    if (admin.authorities.includes(ESCALATION_ADMIN_AUTHORITY)) return;
    this.o.audit.record({
      type: "auth.mfa.escalation-denied",
      outcome: "denied",
      principal: admin.username,
      data: { reason: "not-admin", ...(escalationId === undefined ? {} : { escalationId }) },
    });
    throw new PlatformError("ACCESS_DENIED", "Only administrators can review escalated logins");
  }

  private audit(e: Escalation, event: AuditEvent): void {
    this.o.audit.record({
      ...event,
      remoteAddress: event.remoteAddress ?? e.remoteAddress,
      data: {
        escalationId: e.id,
        userId: e.userId,
        username: e.username,
        flowTypeName: e.flowTypeName,
        status: e.status,
        ...event.data,
      },
    });
  }

  private publish(type: string, e: Escalation): Promise<void> {
    const payload: EscalationEventPayload = {
      escalationId: e.id,
      userId: e.userId,
      username: e.username,
      flowTypeName: e.flowTypeName,
      reason: e.reason,
      remoteAddress: e.remoteAddress,
      status: e.status === "APPROVED" || e.status === "REJECTED" ? e.status : "PENDING",
      ...(e.decidedBy === undefined ? {} : { decidedBy: e.decidedBy }),
      at: e.decidedAt ?? e.createdAt,
    };
    return this.o.events.publish(type, payload);
  }
}

function notPending(status: string, cause?: unknown): PlatformError {
  return new PlatformError("ILLEGAL_STATE_TRANSITION", `The escalation is ${status}, no longer pending`, {
    details: { status },
    cause,
  });
}
