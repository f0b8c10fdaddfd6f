import { AdministratorGuard } from "../../identity/users/admin/administrator-guard.js";
import { InMemoryDistributedLock } from "../../kernel/coordination/in-memory-distributed-lock.js";
import { zeroTrustAvailabilityCheck } from "../../authz/zerotrust/zero-trust-availability-check.js";
// Test support for the pipeline's tests: the pipeline over the platform's in-memory adapters and
// the real model side (the layered engine over the offline analyst, joined by EngineDecisionMaker).
// GatedModel is the analyst with the failure modes of a real model (slow, hung, down); the analyst
// decides every answer.
import { InMemoryZeroTrustActionStore } from "../../authz/zerotrust/in-memory-zero-trust-action-store.js";
import { ZeroTrustActionResolver } from "../../authz/zerotrust/zero-trust-action-resolver.js";
import { ZeroTrustActionService } from "../../authz/zerotrust/zero-trust-action-service.js";
import { ZERO_TRUST_PROPERTIES } from "../../authz/zerotrust/zero-trust.properties.js";
import { InMemoryUserRepository } from "../../identity/users/in-memory-user-repository.js";
import { ManualClock } from "../../kernel/clock.js";
import { InProcessEventBus, type PlatformEvent } from "../../kernel/event-bus.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import type { Logger } from "../../kernel/logger.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { resolveProperties } from "../../kernel/properties.js";
import { loadBundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import { PROMPT_BUNDLE_ACTIVE } from "../../prompts/prompts.properties.js";
import { DECISION_PIPELINE_PROPERTIES, decisionPipelineSettings } from "./decision-pipeline.properties.js";
import { sealedEvidenceFixture } from "../evidence/sealed-evidence.fixture.js";
import type { SealedEvidence } from "../evidence/sealed-evidence-service.js";
import { InMemoryDecisionHistoryStore } from "../history/in-memory-decision-history-store.js";
import { type BundleSelector, ConfigurationBundleSelector } from "./bundle-selector.js";
import { DecisionContextBuilder } from "./decision-context-builder.js";
import { OfflineAnalyst } from "../analyst/offline-analyst.js";
import { EngineDecisionMaker } from "../engine/engine-decision-maker.js";
import { LayeredDecisionEngine } from "../engine/layered-decision-engine.js";
import type { DecisionBudget, DecisionModel } from "../model/decision-model.js";
import type { DecisionEvent, DecisionEventKind } from "./decision-event.js";
import type { DecisionMaker, DecisionModelInfo, DecisionOutcome, DecisionRequest } from "./decision-maker.js";
import { DecisionOutcomeWriter } from "./decision-outcome-writer.js";
import { DecisionPipeline } from "./decision-pipeline.js";
import { ModelCallCaps } from "./model-call-caps.js";
import type { ShadowDecisions } from "./shadow-decisions.js";

// Read once: checking the manifests costs a few hundred milliseconds.
const CATALOG = loadBundleCatalog();

/**
 * The offline analyst behaving like a remote model when a test asks: `holding` makes calls wait for
 * `release()`, `mode` "hang" never answers (until aborted), "fail" rejects as an unreachable model.
 */
export class GatedModel implements DecisionModel {
  readonly name: string;
  readonly external: boolean;
  mode: "answer" | "hang" | "fail" = "answer";
  holding = false;
  private held: (() => void)[] = [];
  private readonly analyst = new OfflineAnalyst();

  constructor(
    info: { id: string; external: boolean } = { id: "builtin:offline-analyst/1", external: false },
  ) {
    this.name = info.id;
    this.external = info.external;
  }

  async complete(system: string, user: string, budget: DecisionBudget, signal: AbortSignal): Promise<string> {
    if (this.holding) await new Promise<void>((resolve) => this.held.push(resolve));
    if (this.mode === "fail")
      throw new PlatformError("DECISION_MODEL_UNAVAILABLE", "model down", { details: { attempts: 1 } });
    if (this.mode === "hang")
      await new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
    return this.analyst.complete(system, user, budget, signal);
  }

  /** Lets held calls go on. */
  release(): void {
    this.holding = false;
    for (const r of this.held.splice(0)) r();
  }
}

/** The engine's DecisionMaker over `model`, keeping every request it was asked. */
export class RecordingDecisionMaker implements DecisionMaker {
  readonly requests: DecisionRequest[] = [];
  private readonly inner: EngineDecisionMaker;
  readonly model: DecisionModelInfo;

  constructor(readonly gate: GatedModel = new GatedModel()) {
    const engine = new LayeredDecisionEngine({
      model: gate,
      clock: new ManualClock(0),
      escalationConfidence: 0.7,
      timeouts: { L1: 5_000, L2: 20_000 },
    });
    this.inner = new EngineDecisionMaker({ engine, model: gate });
    this.model = this.inner.model;
  }

  decide(request: DecisionRequest, signal: AbortSignal): Promise<DecisionOutcome> {
    this.requests.push(request);
    return this.inner.decide(request, signal);
  }
}

/** A burst of five denied DELETEs of the admin users API: a REPEATED_DENIALS event's fields. */
export const ADMIN_DENIAL_BURST = {
  method: "DELETE",
  target: "/admin/api/users",
  detail: { denials: 5, windowSeconds: 60 },
} as const;

/** Lets queued microtasks and background writes run until `done` holds (bounded, no timers). */
export async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setImmediate(r));
  if (!done()) throw new Error("condition never held");
}

/** A logger that keeps its lines. */
export class ListLogger implements Logger {
  readonly lines: { level: string; message: string }[] = [];
  info(message: string) {
    this.lines.push({ level: "info", message });
  }
  warn(message: string) {
    this.lines.push({ level: "warn", message });
  }
  error(message: string) {
    this.lines.push({ level: "error", message });
  }
}

/** The fixture's clock and stores a test's shadow runs are built over. */
export interface ShadowFixtureParts {
  readonly clock: ManualClock;
  readonly ids: CryptoIdGenerator;
  readonly audit: InMemoryAuditSink;
  /** The sealed evidence a shadow run records through (stage SHADOW). */
  readonly evidence: SealedEvidence;
  readonly history: InMemoryDecisionHistoryStore;
  readonly store: InMemoryZeroTrustActionStore;
  readonly logger: ListLogger;
}

/** What a test's own selector may use (the fixture's audit sink, logger and clock). */
export interface FixtureSelectorDeps {
  readonly audit: InMemoryAuditSink;
  readonly logger: ListLogger;
  readonly clock: ManualClock;
}

/**
 * The pipeline over in-memory adapters, with `code` properties and `maker`; it runs the configuration
 * selector (`selector`) unless `selectorOf` builds another, and shadow runs when `shadowOf` builds them.
 */
export async function pipelineFixture<
  M extends DecisionMaker & { readonly requests: readonly DecisionRequest[] } = RecordingDecisionMaker,
>(
  code: Record<string, unknown> = {},
  maker: M = new RecordingDecisionMaker() as unknown as M,
  selectorOf?: (deps: FixtureSelectorDeps) => BundleSelector,
  /** Builds the pipeline's shadow runs from the fixture's stores (absent: none). */
  shadowOf?: (parts: ShadowFixtureParts) => ShadowDecisions,
) {
  const clock = new ManualClock(Date.UTC(2026, 6, 30, 10, 0, 0));
  const ids = new CryptoIdGenerator();
  const properties = resolveProperties(
    [...DECISION_PIPELINE_PROPERTIES, ...ZERO_TRUST_PROPERTIES, PROMPT_BUNDLE_ACTIVE],
    { code, env: {} },
  );
  const settings = decisionPipelineSettings(properties);
  // The in-process maker the pipeline falls back to: the analyst, recorded apart from `maker`.
  const fallback = new RecordingDecisionMaker();
  const audit = new InMemoryAuditSink(10_000, clock);
  const users = new InMemoryUserRepository({ ids, clock });
  const store = new InMemoryZeroTrustActionStore({ clock });
  const resolver = new ZeroTrustActionResolver(store, clock, audit, properties, () => 0);
  const guard = new AdministratorGuard({
    users,
    lock: new InMemoryDistributedLock(clock),
    checks: () => [zeroTrustAvailabilityCheck(store)],
    owner: () => ids.secret(12),
  });
  const zeroTrust = new ZeroTrustActionService(store, resolver, audit, users, guard);
  const history = new InMemoryDecisionHistoryStore();
  const evidence = sealedEvidenceFixture({ clock });
  const events = new InProcessEventBus();
  const alerts: PlatformEvent[] = [];
  events.on("decisions.alert", (e) => {
    alerts.push(e);
  });
  const logger = new ListLogger();
  // `selector` stays the configuration selector; the pipeline runs `selectorOf`'s when given.
  const selector = new ConfigurationBundleSelector({
    catalog: CATALOG,
    active: properties.get(PROMPT_BUNDLE_ACTIVE),
    audit,
    logger,
  });
  const shadow = shadowOf?.({ clock, ids, audit, evidence: evidence.sealed, history, store, logger });
  const pipeline = new DecisionPipeline({
    settings,
    maker,
    fallback,
    selector: selectorOf?.({ audit, logger, clock }) ?? selector,
    shadow,
    context: new DecisionContextBuilder({ users, history, clock, historyLimit: settings.historyLimit }),
    writer: new DecisionOutcomeWriter({
      zeroTrust,
      history,
      evidence: evidence.sealed,
      audit,
      events,
      ids,
      clock,
    }),
    zeroTrust,
    caps: ModelCallCaps.of(settings, clock),
    history,
    audit,
  });
  const alice = await users.create({
    username: "alice@example.com",
    authorities: ["ROLE_USER", "orders:read"],
  });
  let n = 0;
  const event = (kind: DecisionEventKind, extra: Partial<DecisionEvent> = {}): DecisionEvent => ({
    id: `evt-${++n}`,
    kind,
    at: clock.now(),
    userId: alice.id,
    remoteAddress: "203.0.113.54",
    method: "GET",
    target: "/api/orders",
    ...extra,
  });
  const auditOf = (type: string) => audit.events().filter((e) => e.type === type);
  return {
    clock,
    audit,
    users,
    store,
    zeroTrust,
    history,
    evidence,
    events,
    alerts,
    logger,
    selector,
    pipeline,
    maker,
    fallback,
    alice,
    event,
    auditOf,
  };
}
