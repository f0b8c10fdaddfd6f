import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Logger } from "../../kernel/logger.js";
import type { BundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import type { BundleSelection } from "../engine/bundle-selection.js";
import { DECISIONS_AUDIT } from "./decisions-audit.js";

/** Events whose selection is remembered (the oldest forgotten first). */
const REMEMBERED_EVENTS = 10_000;

/**
 * The configuration selector: the version in `platform.security.tiered.prompt-bundle.active`
 * (CONFIGURATION), blank → the build default (BUILD_DEFAULT). A version this build does not run
 * falls back to the build default (BUILD_DEFAULT, `requested` set), reported once per version in the
 * log and the audit trail. The first selection of an event fixes its bundle: asking again for the
 * same event id answers the same selection.
 */
export class ConfigurationBundleSelector {
  private readonly byEvent = new Map<string, BundleSelection>();
  private readonly reported = new Set<string>();

  constructor(
    private readonly o: { catalog: BundleCatalog; active: string; audit: AuditSink; logger: Logger },
  ) {}

  /** The bundle of `eventId` (fixed by its first call). */
  select(eventId: string): BundleSelection {
    const known = this.byEvent.get(eventId);
    if (known !== undefined) return known;
    const selection = this.choose();
    this.byEvent.set(eventId, selection);
    if (this.byEvent.size > REMEMBERED_EVENTS) this.byEvent.delete(this.byEvent.keys().next().value!);
    return selection;
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
