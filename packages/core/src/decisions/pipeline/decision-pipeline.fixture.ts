// Test support for the pipeline's tests. TableDecisionMaker is a stand-in for the model side: it
// answers from a table by event kind. The real engine (the built-in analyst and the
// OpenAI-compatible adapter, behind the DecisionMaker port) replaces it once both halves are joined.
// Everything else here is the platform's own in-memory adapters.
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
import { resolveProperties } from "../../kernel/properties.js";
import { loadBundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import { PROMPT_BUNDLE_ACTIVE } from "../../prompts/prompts.properties.js";
import { DECISION_PIPELINE_PROPERTIES, decisionPipelineSettings } from "./decision-pipeline.properties.js";
import { InMemorySealedEvidenceStore } from "../evidence/in-memory-sealed-evidence-store.js";
import { InMemoryDecisionHistoryStore } from "../history/in-memory-decision-history-store.js";
import { ConfigurationBundleSelector } from "./bundle-selector.js";
import { DecisionContextBuilder } from "./decision-context-builder.js";
import type { DecisionEvent, DecisionEventKind } from "./decision-event.js";
import type { DecisionAction, DecisionMaker, DecisionOutcome, DecisionRequest } from "./decision-maker.js";
import { DecisionOutcomeWriter } from "./decision-outcome-writer.js";
import { DecisionPipeline } from "./decision-pipeline.js";
import { LastAdminGuard } from "./last-admin-guard.js";
import { ModelCallCaps } from "./model-call-caps.js";

// Read once: checking the manifests costs a few hundred milliseconds.
const CATALOG = loadBundleCatalog();

/** A DecisionMaker answering from a table by event kind (ALLOW when the kind is not in it). */
export class TableDecisionMaker implements DecisionMaker {
  readonly requests: DecisionRequest[] = [];
  /** "hang": never answers (until aborted, when it rejects); "fail": rejects. */
  mode: "answer" | "hang" | "fail" = "answer";
  /** Prompts per decision (2: L1 asked L2). */
  promptsPerDecision = 1;
  private held: (() => void)[] = [];
  /** While true, decisions wait for `release()`. */
  holding = false;

  constructor(
    private readonly table: Partial<Record<DecisionEventKind, DecisionAction>> = {},
    readonly model = { id: "table", external: false },
  ) {}

  async decide(request: DecisionRequest, signal: AbortSignal): Promise<DecisionOutcome> {
    this.requests.push(request);
    if (this.holding) await new Promise<void>((resolve) => this.held.push(resolve));
    if (this.mode === "fail") throw new Error("model down");
    if (this.mode === "hang")
      await new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
    const { bundle, version, bundleHash, source } = request.selection;
    const prompts = bundle.budgets.slice(0, this.promptsPerDecision).map((profile) => {
      const render = bundle.render(request.input, profile);
      return { layer: profile.family, system: render.system, user: render.user };
    });
    const action = this.table[request.event.kind] ?? "ALLOW";
    return {
      action,
      riskScore: action === "ALLOW" ? 0.1 : 0.9,
      confidence: 0.8,
      reasons: [{ code: `TABLE_${action}`, factIds: [] }],
      layer: this.promptsPerDecision > 1 ? "L2" : "L1",
      bundleVersion: version,
      bundleHash,
      selectionSource: source,
      model: this.model,
      timings: { totalMs: 1 },
      prompts,
    };
  }

  /** Lets held decisions go on. */
  release(): void {
    this.holding = false;
    for (const r of this.held.splice(0)) r();
  }
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

/** The pipeline over in-memory adapters, with `code` properties and `maker`. */
export async function pipelineFixture(
  code: Record<string, unknown> = {},
  maker: TableDecisionMaker = new TableDecisionMaker(),
) {
  const clock = new ManualClock(Date.UTC(2026, 6, 30, 10, 0, 0));
  const ids = new CryptoIdGenerator();
  const properties = resolveProperties(
    [...DECISION_PIPELINE_PROPERTIES, ...ZERO_TRUST_PROPERTIES, PROMPT_BUNDLE_ACTIVE],
    { code, env: {} },
  );
  const settings = decisionPipelineSettings(properties);
  const audit = new InMemoryAuditSink(10_000, clock);
  const users = new InMemoryUserRepository({ ids, clock });
  const store = new InMemoryZeroTrustActionStore({ clock });
  const resolver = new ZeroTrustActionResolver(store, clock, audit, properties, () => 0);
  const zeroTrust = new ZeroTrustActionService(store, resolver, audit, users);
  const history = new InMemoryDecisionHistoryStore();
  const evidence = new InMemorySealedEvidenceStore(100);
  const events = new InProcessEventBus();
  const alerts: PlatformEvent[] = [];
  events.on("decisions.alert", (e) => {
    alerts.push(e);
  });
  const logger = new ListLogger();
  const selector = new ConfigurationBundleSelector({
    catalog: CATALOG,
    active: properties.get(PROMPT_BUNDLE_ACTIVE),
    audit,
    logger,
  });
  const pipeline = new DecisionPipeline({
    settings,
    maker,
    selector,
    context: new DecisionContextBuilder({ users, history, clock, historyLimit: settings.historyLimit }),
    writer: new DecisionOutcomeWriter({
      zeroTrust,
      history,
      evidence,
      audit,
      events,
      ids,
      clock,
      guard: new LastAdminGuard(users),
    }),
    zeroTrust,
    caps: new ModelCallCaps({ clock, perMinute: settings.callsPerMinute, perDay: settings.callsPerDay }),
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
    alice,
    event,
    auditOf,
  };
}
