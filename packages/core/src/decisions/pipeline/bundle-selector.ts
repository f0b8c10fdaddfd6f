import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Logger } from "../../kernel/logger.js";
import type { BundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import type { InjectionToken } from "tsyringe";
import type { BundleSelection, ServedBundle } from "../engine/bundle-selection.js";
import type { DecisionEvent } from "./decision-event.js";
import { DECISIONS_AUDIT } from "./decisions-audit.js";
import { EventSelections } from "./event-selections.js";

/**
 * Chooses the bundle each decision runs (the spec's "one selector chooses the bundle for each
 * request"). Synchronous: it reads what it holds in memory, never a store, so a slow database never
 * delays a decision; it never throws (a selector that cannot choose answers the build default,
 * source BUILD_DEFAULT). The first selection of an event fixes its bundle: asking again for the same
 * event answers the same selection.
 */
export interface BundleSelector {
  /** The bundle of `event` (fixed by its first call). */
  select(event: DecisionEvent): BundleSelection;
  /**
   * What this instance serves now, per scope, prompt key and source (the heartbeat reports it). A
   * selector that has not read its source yet answers the build default.
   */
  serving(): readonly ServedBundle[];
}

/**
 * DI token of the BundleSelector port. The decisions pipeline registers the configuration selector
 * as the default; promptGovernancePlugin overrides it with the registry selector when
 * `platform.security.tiered.prompt-bundle.selector` is REGISTRY; a host may override either.
 */
export const BundleSelector: InjectionToken<BundleSelector> = Symbol.for("platform.BundleSelector");

/**
 * The configuration selector: the version in `platform.security.tiered.prompt-bundle.active`
 * (CONFIGURATION), blank → the build default (BUILD_DEFAULT). A version this build does not run
 * falls back to the build default (BUILD_DEFAULT, `requested` set), reported once per version in the
 * log and the audit trail. The first selection of an event fixes its bundle: asking again for the
 * same event id answers the same selection.
 */
export class ConfigurationBundleSelector implements BundleSelector {
  private readonly byEvent = new EventSelections();
  private readonly reported = new Set<string>();

  constructor(
    private readonly o: { catalog: BundleCatalog; active: string; audit: AuditSink; logger: Logger },
  ) {}

  /** The bundle of `event` (fixed by its first call). */
  select(event: Pick<DecisionEvent, "id">): BundleSelection {
    const eventId = event.id;
    const known = this.byEvent.get(eventId);
    if (known !== undefined) return known;
    const selection = this.choose();
    this.byEvent.remember(eventId, selection);
    return selection;
  }

  /** The one bundle it serves, in PLATFORM_GLOBAL (its scope is the whole platform). */
  serving(): readonly ServedBundle[] {
    const selection = this.choose();
    const entry = this.o.catalog.find(selection.version);
    return [
      {
        registryScope: "PLATFORM_GLOBAL",
        promptKey: entry?.manifest.descriptor.promptKey ?? "",
        promptVersion: selection.version,
        bundleHash: selection.bundleHash,
        source: selection.source,
      },
    ];
  }

  private choose(): BundleSelection {
    const active = this.o.active.trim();
    if (active !== "") {
      const entry = this.o.catalog.find(active);
      if (entry?.bundle !== undefined)
        return Object.freeze({
          version: active,
          bundleHash: entry.manifest.bundleHash,
          source: "CONFIGURATION" as const,
          bundle: entry.bundle,
        });
      this.reportFallback(active, entry === undefined ? "unknown" : "record-only");
    }
    return this.buildDefault(active === "" ? undefined : active);
  }

  private buildDefault(requested: string | undefined): BundleSelection {
    const version = this.o.catalog.buildDefault;
    const entry = this.o.catalog.find(version);
    return Object.freeze({
      version,
      bundleHash: entry?.manifest.bundleHash ?? "",
      source: "BUILD_DEFAULT" as const,
      bundle: this.o.catalog.runnable(version),
      ...(requested === undefined ? {} : { requested }),
    });
  }

  private reportFallback(requested: string, why: "unknown" | "record-only"): void {
    if (this.reported.has(requested)) return;
    this.reported.add(requested);
    const fields = { requested, why, ran: this.o.catalog.buildDefault };
    this.o.logger.warn("decision bundle not run by this build; the build default runs", fields);
    try {
      this.o.audit.record({
        type: DECISIONS_AUDIT.bundleFallback,
        outcome: "info",
        principal: "system",
        data: fields,
      });
    } catch {
      // The sink must not stop a decision.
    }
  }
}
