import type { AuditEvent, AuditListener } from "@keyward/core/ports";
import { Counter, Gauge, type Histogram, Registry } from "prom-client";
import {
  countLatency,
  emptyLatencyCounts,
  type LatencyCounts,
  RequestLatencyHistogram,
} from "./request-latency-histogram.js";
import { type OperationalSources, registerSourceCollectors } from "./source-collectors.js";

/** DI key of a platform's PlatformMetrics (registered by httpPlugin when metrics are enabled). */
export const PLATFORM_METRICS: symbol = Symbol.for("platform.http.PlatformMetrics");

/** The route label of a request no route served (404, a refused unparsable request). */
export const NO_ROUTE = "none";

/** Sign-in methods counted by name; any other audited method counts as `other` (bounded labels). */
const SIGN_IN_METHODS = new Set(["form", "rest", "ott", "passkey", "mfa", "bearer"]);

/** The MFA challenge states whose verification a state change reports, by factor. */
const FACTOR_OF_STATE: Readonly<Record<string, string>> = {
  OTT_CHALLENGE: "ott",
  PASSKEY_CHALLENGE: "passkey",
};

/** The MFA flow states that end a flow (a bounded label set). */
const FLOW_END_STATES = new Set([
  "MFA_SUCCESSFUL",
  "MFA_NOT_REQUIRED",
  "MFA_FAILED_TERMINAL",
  "MFA_CANCELLED",
  "MFA_TIMEOUT",
  "MFA_SESSION_EXPIRED",
  "MFA_ACCOUNT_LOCKED",
  "MFA_SYSTEM_ERROR",
]);

/** Answers of one route name with one status, so far. */
export interface StatusCount {
  readonly route: string;
  readonly status: string;
  n: number;
}

/**
 * One route name's request metrics, as plain numbers (PlatformMetrics.requestInstruments): a request
 * adds to them, and the registry reads them when scraped.
 */
export interface RouteInstruments {
  /** The route's latencies (countLatency). */
  readonly latency: LatencyCounts;
  /** The route's answers by status, as seen so far. */
  readonly byStatus: ReadonlyMap<number, StatusCount>;
  /** Adds (and keeps) the count of a status not seen yet for the route. */
  count(status: number): StatusCount;
}

/**
 * One platform's Prometheus metrics, in a registry of its own (never prom-client's global one, so
 * two platforms in one process count apart). Requests are counted by the binding (`request`); sign-ins,
 * MFA outcomes and store outages come from the audit trail (`auditListener`, one tap); policy
 * decisions and the decision pipeline's queue are read from their own counters when scraped.
 * Every label is bounded: route names from the route table, statuses, method and outcome words.
 */
export class PlatformMetrics {
  /** This platform's registry: what the metrics endpoint serves. */
  readonly registry = new Registry();
  /** Hears the audit events that count (a member of the AuditListener family). */
  readonly auditListener: AuditListener = { id: "http-metrics", heard: (event) => this.heard(event) };
  /** Every route name's and status's answers, in the order first seen (as the counter lists them). */
  private readonly statusCounts: StatusCount[] = [];
  private readonly latencies = new Map<string, LatencyCounts>();
  private readonly signIns: Counter<"method" | "outcome">;
  private readonly factors: Counter<"factor" | "outcome">;
  private readonly flows: Counter<"state">;
  private readonly dependencyErrors: Counter<"dependency">;
  private readonly deliveryFailures: Counter<"kind">;
  // Counts kept per route name (and status): a request adds to numbers once its route was seen.
  private readonly routeInstruments = new Map<string, RouteInstruments>();

  constructor() {
    const registers = [this.registry];
    const counts = this.statusCounts;
    new Counter({
      name: "keyward_http_requests_total",
      help: "HTTP requests answered, by route name (none: no route) and status.",
      labelNames: ["route", "status"],
      registers,
      // Read from the counts when scraped (a request adds to a number, no label lookup).
      collect() {
        this.reset();
        for (const c of counts) this.inc({ route: c.route, status: c.status }, c.n);
      },
    });
    // prom-client's metric contract, read from the counts when scraped (RequestLatencyHistogram).
    this.registry.registerMetric(
      new RequestLatencyHistogram(
        "keyward_http_request_duration_seconds",
        "Time from a request's arrival to its answer, by route name.",
        this.latencies,
      ) as unknown as Histogram,
    );
    this.signIns = new Counter({
      name: "keyward_sign_ins_total",
      help: "Sign-in attempts by method (form, rest, ott, passkey, other) and outcome (success, failure, throttled).",
      labelNames: ["method", "outcome"],
      registers,
    });
    this.factors = new Counter({
      name: "keyward_mfa_factor_verifications_total",
      help: "Second factors presented in MFA flows, by factor (ott, passkey) and outcome (success, failure).",
      labelNames: ["factor", "outcome"],
      registers,
    });
    this.flows = new Counter({
      name: "keyward_mfa_flows_ended_total",
      help: "MFA flows that reached a terminal state, by state.",
      labelNames: ["state"],
      registers,
    });
    this.dependencyErrors = new Counter({
      name: "keyward_dependency_errors_total",
      help: "Requests answered 503 DEPENDENCY_UNAVAILABLE because a store was unreachable, by dependency.",
      labelNames: ["dependency"],
      registers,
    });
    this.deliveryFailures = new Counter({
      name: "keyward_delivery_failures_total",
      help: "One-time tokens (kind ott) and MFA codes (kind mfa) the delivery (outbox, SMTP) failed to send.",
      labelNames: ["kind"],
      registers,
    });
    new Gauge({
      name: "keyward_metrics_info",
      help: "Always 1: this platform's metrics are served.",
      registers,
    }).set(1);
  }

  /** Counts one answered request: its route name (NO_ROUTE for none), status and duration in seconds. */
  request(route: string, status: number, seconds: number): void {
    const instruments = this.requestInstruments(route);
    (instruments.byStatus.get(status) ?? instruments.count(status)).n += 1;
    countLatency(instruments.latency, seconds);
  }

  /**
   * The request metrics of one route name, made once and kept: the binding's observer holds them per
   * route, so a request counts itself by adding to numbers, with no label lookup and no function of
   * ours. The names come from the route table (bounded), as the statuses do.
   */
  requestInstruments(route: string): RouteInstruments {
    let instruments = this.routeInstruments.get(route);
    if (instruments === undefined) {
      const byStatus = new Map<number, StatusCount>();
      const counts = this.statusCounts;
      const latency = emptyLatencyCounts();
      this.latencies.set(route, latency);
      instruments = {
        latency,
        byStatus,
        count: (status) => {
          const count: StatusCount = { route, status: String(status), n: 0 };
          byStatus.set(status, count);
          counts.push(count);
          return count;
        },
      };
      this.routeInstruments.set(route, instruments);
    }
    return instruments;
  }

  /** Counts one request answered DEPENDENCY_UNAVAILABLE, by the dependency its error names. */
  dependencyError(dependency: string): void {
    this.dependencyErrors.inc({
      dependency: /^[a-z][a-z0-9-]{0,31}$/.test(dependency) ? dependency : "other",
    });
  }

  /** Reads the policy decision point's and the decision pipeline's own counters when scraped. */
  readFrom(sources: OperationalSources): void {
    registerSourceCollectors(this.registry, sources);
  }

  /** The text exposition of every metric (Prometheus text format 0.0.4). */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  private heard(event: AuditEvent): void {
    const type = event.type;
    if (type.startsWith("auth.login.")) this.signIn(type.slice(11), event.data?.method);
    else if (type === "mfa.event.StateChangeEvent") this.mfaState(event.data);
    else if (type === "auth.ott.delivery-failed") this.deliveryFailures.inc({ kind: "ott" });
    else if (type === "auth.mfa.delivery-failed") this.deliveryFailures.inc({ kind: "mfa" });
  }

  private signIn(outcome: string, method: unknown): void {
    if (outcome !== "success" && outcome !== "failure" && outcome !== "throttled") return;
    const name = typeof method === "string" && SIGN_IN_METHODS.has(method) ? method : "other";
    this.signIns.inc({ method: name, outcome });
  }

  private mfaState(data: Record<string, unknown> | undefined): void {
    if (data === undefined) return;
    const { fromState, toState, event } = data;
    const factor = typeof fromState === "string" ? FACTOR_OF_STATE[fromState] : undefined;
    if (factor !== undefined && event === "FACTOR_VERIFIED_SUCCESS")
      this.factors.inc({ factor, outcome: "success" });
    if (factor !== undefined && event === "FACTOR_VERIFICATION_FAILED")
      this.factors.inc({ factor, outcome: "failure" });
    if (typeof toState === "string" && FLOW_END_STATES.has(toState)) this.flows.inc({ state: toState });
  }
}
