import type { DecisionPipeline } from "@keyward/core/decisions";
import type { UrlAuthorizationManager } from "@keyward/core/ports";
import { Counter, Gauge, type Registry } from "prom-client";

/** What the metrics read when scraped: the URL policy decision point and the decision pipeline, when installed. */
export interface OperationalSources {
  readonly policies?: Pick<UrlAuthorizationManager, "decisionCounts"> | undefined;
  readonly decisions?: Pick<DecisionPipeline, "stats"> | undefined;
}

/**
 * Registers the metrics read from the sources' own counters at scrape time (nothing per request):
 * policy decisions by outcome, and the decision pipeline's queue depth, running decisions, drops by
 * reason and fallbacks by reason. A source that is absent (no authz or decisions plugin) adds none.
 */
export function registerSourceCollectors(registry: Registry, sources: OperationalSources): void {
  const registers = [registry];
  const policies = sources.policies;
  if (policies?.decisionCounts !== undefined) {
    const read = () => policies.decisionCounts?.() ?? { granted: 0, denied: 0 };
    new Counter({
      name: "keyward_policy_decisions_total",
      help: "Requests the URL policy decision point decided, by outcome (granted, denied).",
      labelNames: ["outcome"],
      registers,
      collect() {
        const counts = read();
        this.reset();
        this.inc({ outcome: "granted" }, counts.granted);
        this.inc({ outcome: "denied" }, counts.denied);
      },
    });
  }
  const decisions = sources.decisions;
  if (decisions !== undefined) registerDecisionPipeline(registers, decisions);
}

function registerDecisionPipeline(registers: Registry[], decisions: Pick<DecisionPipeline, "stats">): void {
  new Gauge({
    name: "keyward_decision_queue_depth",
    help: "Security-decision events waiting on the pipeline's queue now.",
    registers,
    collect() {
      this.set(decisions.stats().queued);
    },
  });
  new Gauge({
    name: "keyward_decision_running",
    help: "Security decisions running now.",
    registers,
    collect() {
      this.set(decisions.stats().running);
    },
  });
  new Counter({
    name: "keyward_decision_events_dropped_total",
    help: "Security-decision events not decided, by reason (queue-full, unknown-user).",
    labelNames: ["reason"],
    registers,
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(decisions.stats().dropped)) this.inc({ reason }, count);
    },
  });
  new Counter({
    name: "keyward_decision_fallbacks_total",
    help: "Decisions the in-process analyst made because the configured model could not be asked, by reason.",
    labelNames: ["reason"],
    registers,
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(decisions.stats().fellBack)) this.inc({ reason }, count);
    },
  });
}
