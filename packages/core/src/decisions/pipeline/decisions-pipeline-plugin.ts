import type { DependencyContainer } from "tsyringe";
import { ZeroTrustActionService } from "../../authz/zerotrust/zero-trust-action-service.js";
import { UserRepository } from "../../identity/users/user-repository.js";
import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock } from "../../kernel/clock.js";
import { EventBus } from "../../kernel/event-bus.js";
import { IdGenerator } from "../../kernel/id-generator.js";
import { Logger } from "../../kernel/logger.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { PlatformPlugin } from "../../kernel/plugin.js";
import { PlatformProperties } from "../../kernel/properties.js";
import { BundleCatalog } from "../../prompts/bundle-catalog-token.js";
import { promptsPlugin } from "../../prompts/prompts-plugin.js";
import { DECISIONS_ERROR_CODES } from "../decisions-error-codes.js";
import { RouteTable } from "../../web/route-table.js";
import { SecurityDecisionsEndpoints } from "../admin/security-decisions-endpoints.js";
import { PROMPT_BUNDLE_ACTIVE, PROMPT_BUNDLE_SELECTOR } from "../../prompts/prompts.properties.js";
import { DECISION_PIPELINE_PROPERTIES, decisionPipelineSettings } from "./decision-pipeline.properties.js";
import { InMemorySealedEvidenceStore } from "../evidence/in-memory-sealed-evidence-store.js";
import { SealedEvidenceStore } from "../evidence/sealed-evidence-store.js";
import { sealedEvidencePlugin } from "../evidence/sealed-evidence-plugin.js";
import { SealedEvidenceToken } from "../evidence/sealed-evidence-service.js";
import { DecisionHistoryStore } from "../history/decision-history-store.js";
import { InMemoryDecisionHistoryStore } from "../history/in-memory-decision-history-store.js";
import { BundleSelector, ConfigurationBundleSelector } from "./bundle-selector.js";
import { DecisionContextBuilder } from "./decision-context-builder.js";
import { DecisionEventSources } from "./decision-event-sources.js";
import { DecisionMaker, FallbackDecisionMaker } from "./decision-maker.js";
import { inProcessDecisionMaker } from "../engine/in-process-decision-maker.js";
import { DecisionOutcomeWriter } from "./decision-outcome-writer.js";
import { DecisionPipeline } from "./decision-pipeline.js";
import { ModelCallCaps } from "./model-call-caps.js";
import { ShadowDecisions } from "./shadow-decisions.js";

/**
 * The decision pipeline as a plugin: registers the DecisionHistoryStore and SealedEvidenceStore
 * defaults (in memory), the DecisionPipeline and its DecisionEventSources, subscribes to the bus at
 * start; at stop it unsubscribes and waits for running decisions. At start it adds the
 * security-decisions admin API (`/platform/admin/api/security-decisions`) to the RouteTable, when
 * there is one. Needs the identity plugin (users), zero trust (authzPlugin or zeroTrustPlugin) and a
 * DecisionMaker (the model side, or a host's); includes the prompts plugin (the bundle catalog).
 * With `platform.security.decision.enabled` false it starts without a DecisionMaker and decides nothing.
 */
export const decisionsPipelinePlugin: PlatformPlugin = {
  id: "decisions-pipeline",
  properties: DECISION_PIPELINE_PROPERTIES,
  errorCodes: [DECISIONS_ERROR_CODES],
  includes: [promptsPlugin, sealedEvidencePlugin],
  register(ctx) {
    const settings = decisionPipelineSettings(ctx.properties);
    ctx.registerDefault(DecisionHistoryStore, { useFactory: () => new InMemoryDecisionHistoryStore() });
    ctx.registerDefault(SealedEvidenceStore, {
      useFactory: () => new InMemorySealedEvidenceStore(settings.evidenceCapacity),
    });
    // The decisions plugin registers its own first (with its layer properties); this default serves a
    // host that installs the pipeline alone with its own DecisionMaker.
    ctx.registerDefault(FallbackDecisionMaker, {
      useFactory: (c) => inProcessDecisionMaker(c.resolve(Clock)),
    });
    ctx.registerDefault(BundleSelector, {
      useFactory: (c) =>
        new ConfigurationBundleSelector({
          catalog: c.resolve(BundleCatalog),
          active: c.resolve(PlatformProperties).get(PROMPT_BUNDLE_ACTIVE),
          audit: c.resolve(AuditSink),
          logger: c.resolve(Logger),
        }),
    });
    ctx.registerDefault(DecisionPipeline, { useFactory: (c) => buildPipeline(c) });
    ctx.registerDefault(DecisionEventSources, {
      useFactory: (c) => {
        const pipeline = c.resolve(DecisionPipeline);
        return new DecisionEventSources({
          submit: (event) => pipeline.submit(event),
          events: c.resolve(EventBus),
          ids: c.resolve(IdGenerator),
          clock: c.resolve(Clock),
          denialsThreshold: settings.denialsThreshold,
          denialsWindowMs: settings.denialsWindowMs,
        });
      },
    });
    let unsubscribe: (() => void) | undefined;
    ctx.onStart("decisions-pipeline", (c) => {
      addAdminRoutes(c);
      if (!settings.enabled) return;
      requirePorts(c);
      requireRegistrySelector(c);
      unsubscribe = c.resolve(DecisionEventSources).subscribe();
    });
    ctx.onStop("decisions-pipeline", async (c) => {
      unsubscribe?.();
      unsubscribe = undefined;
      if (settings.enabled) await c.resolve(DecisionPipeline).idle();
    });
  },
};

// Served with the kill switch off too: the decisions already made stay readable.
function addAdminRoutes(c: DependencyContainer): void {
  if (!c.isRegistered(RouteTable, true)) return;
  const endpoints = new SecurityDecisionsEndpoints({
    evidence: c.resolve(SealedEvidenceStore),
    sealed: c.resolve(SealedEvidenceToken),
    ...(c.isRegistered(UserRepository, true) ? { users: c.resolve(UserRepository) } : {}),
    audit: c.resolve(AuditSink),
  });
  const table = c.resolve(RouteTable);
  for (const route of endpoints.routes()) table.add(route);
}

function requirePorts(c: DependencyContainer): void {
  const missing = [
    [DecisionMaker, "a DecisionMaker (the decisions model plugin, or register one)"],
    [UserRepository, "the identity plugin"],
    [ZeroTrustActionService, "zero trust (authzPlugin or zeroTrustPlugin)"],
  ].filter(([token]) => !c.isRegistered(token as symbol, true));
  if (missing.length > 0)
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `decisionsPipelinePlugin needs ${missing.map(([, what]) => what).join(", ")}; or set platform.security.decision.enabled=false`,
    );
}

// selector=REGISTRY with nothing replacing the configuration selector would silently run the
// configured bundle: refuse to start instead.
function requireRegistrySelector(c: DependencyContainer): void {
  if (c.resolve(PlatformProperties).get(PROMPT_BUNDLE_SELECTOR) !== "REGISTRY") return;
  if (c.resolve(BundleSelector) instanceof ConfigurationBundleSelector)
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      "platform.security.tiered.prompt-bundle.selector=REGISTRY needs promptGovernancePlugin (the release registry), or a BundleSelector of the host's",
    );
}

function buildPipeline(c: DependencyContainer): DecisionPipeline {
  const settings = decisionPipelineSettings(c.resolve(PlatformProperties));
  const users = c.resolve(UserRepository);
  const audit = c.resolve(AuditSink);
  const clock = c.resolve(Clock);
  const history = c.resolve(DecisionHistoryStore);
  const zeroTrust = c.resolve(ZeroTrustActionService);
  return new DecisionPipeline({
    settings,
    maker: c.resolve(DecisionMaker),
    fallback: c.resolve(FallbackDecisionMaker),
    selector: c.resolve(BundleSelector),
    shadow: c.isRegistered(ShadowDecisions, true) ? c.resolve(ShadowDecisions) : undefined,
    context: new DecisionContextBuilder({ users, history, clock, historyLimit: settings.historyLimit }),
    writer: new DecisionOutcomeWriter({
      zeroTrust,
      history,
      evidence: c.resolve(SealedEvidenceToken),
      audit,
      events: c.resolve(EventBus),
      ids: c.resolve(IdGenerator),
      clock,
    }),
    zeroTrust,
    caps: ModelCallCaps.of(settings, clock),
    history,
    audit,
  });
}
