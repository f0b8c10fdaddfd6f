import type { ChainEntry } from "../../decisions/evidence/chain-entry.js";
import type { EvidencePackage } from "../../decisions/evidence/evidence-package.js";
import type { PayloadCipher } from "../../decisions/evidence/payload-cipher.js";
import {
  EVIDENCE_RECENT_MAX_LIMIT,
  type SealedEvidenceStore,
} from "../../decisions/evidence/sealed-evidence-store.js";
import type { SealedPayload } from "../../decisions/evidence/sealed-package.js";
import { MAX_REHEARSAL_PACKAGES, rehearsalSchema } from "../../governance/evidence/rehearsal-content.js";
import type { RehearsalContent } from "../../governance/evidence/rehearsal-content.js";
import type {
  EvidenceRecord,
  ReleaseEvidenceLedger,
} from "../../governance/evidence/release-evidence-ledger.js";
import type { GovernanceActor } from "../../governance/release-governance.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { canonicalJson, type JsonValue, sha256Hex } from "../../prompts/hashing/canonical-json.js";
import type { BundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import { dictionaryVersionOf } from "../inspect-package.js";
import { type RehearsalCandidate, type RehearsedPackage, rehearsePackage } from "./rehearse-package.js";
import { summariseRehearsal } from "./rehearsal-summary.js";

/** The audit event of a rehearsal (it opened the payloads of the packages it read). */
export const REHEARSAL_AUDIT_EVENT = "inspection.rehearsal.run";
/** Most chain entries one rehearsal reads to find its packages (shadow and erased ones are passed over). */
const MAX_SCANNED = 10 * MAX_REHEARSAL_PACKAGES;

/** What to rehearse: a candidate version, a capture period, how many packages, and whether to record it. */
export interface RehearsalRequest {
  readonly candidate: string;
  /** Capture period, epoch milliseconds: `from` inclusive, `to` exclusive. */
  readonly from: number;
  readonly to: number;
  /** 1..MAX_REHEARSAL_PACKAGES. */
  readonly limit: number;
  /** Record the summary as REHEARSAL evidence (default true). */
  readonly record?: boolean | undefined;
}

/** A rehearsal's answer: its summary and the evidence record it made (null when not recorded). */
export interface RehearsalOutcome {
  readonly rehearsal: RehearsalContent;
  readonly record: EvidenceRecord | null;
}

/** What the rehearsal reads and writes. */
export interface BundleRehearsalOptions {
  readonly store: SealedEvidenceStore;
  readonly cipher: PayloadCipher;
  readonly catalog: BundleCatalog;
  readonly ledger: ReleaseEvidenceLedger;
  readonly audit: AuditSink;
  readonly clock: Clock;
}

type Skipped = { shadow: number; erased: number; unreadable: number };

/**
 * Counterfactual re-render (`platform bundles rehearse`): the sealed contexts of enforced decisions
 * of a capture period (oldest first, up to the limit), rendered again by a candidate bundle this
 * build runs and held to the inspector's layout checks, with no model call; the summary recorded
 * as REHEARSAL evidence bound to the candidate's bundle hash, under the administrator who asked.
 * Opening the payloads is an audited read (one event for the rehearsal).
 */
export class BundleRehearsal {
  constructor(private readonly o: BundleRehearsalOptions) {}

  async run(request: RehearsalRequest, actor: GovernanceActor): Promise<RehearsalOutcome> {
    const candidate = this.candidateOf(request.candidate);
    const { packages, truncated, skipped } = await this.contexts(request);
    const results: RehearsedPackage[] = [];
    for (const [i, pkg] of packages.entries()) {
      results.push(rehearsePackage(pkg, candidate));
      // Let the server answer other requests between batches of renders.
      if (i % 50 === 49) await new Promise((r) => setImmediate(r));
    }
    const manifest = candidate.entry.manifest;
    const rehearsal = rehearsalSchema.parse(
      summariseRehearsal(results, {
        candidate: {
          promptVersion: manifest.descriptor.promptVersion,
          bundleHash: manifest.bundleHash,
          layout: manifest.layout,
        },
        dictionaryVersion: dictionaryVersionOf(this.o.catalog),
        period: { from: request.from, to: request.to },
        truncated,
        skipped,
      }),
    ) as RehearsalContent;
    const record = request.record === false ? null : await this.recorded(rehearsal, manifest, actor);
    this.audited(actor, request, rehearsal, record);
    return { rehearsal, record };
  }

  /** The candidate's entry: a bundle this build runs, else PROMPT_BUNDLE_NOT_IN_BUILD. */
  private candidateOf(version: string): RehearsalCandidate {
    const bundle = this.o.catalog.runnable(version);
    const entry = this.o.catalog.find(version)!;
    return { catalog: this.o.catalog, entry: { ...entry, bundle } };
  }

  /**
   * The enforced, readable packages of the period, oldest first, up to the limit; `truncated` when
   * the period holds more kept packages than were read.
   */
  private async contexts(request: RehearsalRequest) {
    const packages: EvidencePackage[] = [];
    const skipped: Skipped = { shadow: 0, erased: 0, unreadable: 0 };
    const pageSize = Math.min(EVIDENCE_RECENT_MAX_LIMIT, request.limit + 1);
    // The store's cursor is exclusive: start just before `from` (no id sorts after U+FFFF).
    let after = { at: request.from - 1, id: "\uffff" };
    for (let scanned = 0; scanned < MAX_SCANNED; ) {
      const page = await this.o.store.keptPackages(request.to, pageSize, after);
      for (const entry of page) {
        scanned++;
        if (entry.header!.at < request.from) continue;
        if (packages.length === request.limit) return { packages, truncated: true, skipped };
        const opened = await this.opened(entry, skipped);
        if (opened) packages.push(opened);
      }
      if (page.length < pageSize) return { packages, truncated: false, skipped };
      const last = page.at(-1)!;
      after = { at: last.header!.at, id: last.packageIds[0]! };
    }
    return { packages, truncated: true, skipped };
  }

  /** The package of a chain entry with its payload opened; undefined (and counted) when it is skipped. */
  private async opened(entry: ChainEntry, skipped: Skipped): Promise<EvidencePackage | undefined> {
    const header = entry.header!;
    if ((header.metadata.stage ?? "ENFORCE") !== "ENFORCE") {
      skipped.shadow++;
      return undefined;
    }
    let payload: SealedPayload | undefined;
    try {
      payload = entry.payload && (await this.o.cipher.decrypt(entry.payload, header.id, entry.entryHash));
    } catch {
      skipped.unreadable++;
      return undefined;
    }
    if (payload === undefined) {
      skipped.erased++;
      return undefined;
    }
    return {
      id: header.id,
      eventId: header.eventId,
      ...(header.correlationId === null ? {} : { correlationId: header.correlationId }),
      at: header.at,
      prompts: payload.prompts,
      input: payload.input,
      metadata: header.metadata,
    };
  }

  private async recorded(
    content: RehearsalContent,
    manifest: RehearsalCandidate["entry"]["manifest"],
    actor: GovernanceActor,
  ): Promise<EvidenceRecord> {
    return this.o.ledger.record({
      kind: "REHEARSAL",
      promptKey: manifest.descriptor.promptKey,
      promptVersion: manifest.descriptor.promptVersion,
      bundleHash: manifest.bundleHash,
      recordedBy: actor.username,
      recordedAt: this.o.clock.now(),
      content: content as unknown as Record<string, unknown>,
      contentHash: sha256Hex(canonicalJson(content as unknown as JsonValue)),
    });
  }

  private audited(
    actor: GovernanceActor,
    request: RehearsalRequest,
    rehearsal: RehearsalContent,
    record: EvidenceRecord | null,
  ): void {
    try {
      this.o.audit.record({
        type: REHEARSAL_AUDIT_EVENT,
        principal: actor.username,
        outcome: "success",
        ...(actor.correlationId ? { correlationId: actor.correlationId } : {}),
        ...(actor.remoteAddress ? { remoteAddress: actor.remoteAddress } : {}),
        data: {
          candidate: request.candidate,
          from: request.from,
          to: request.to,
          packages: rehearsal.packages,
          failed: rehearsal.verdicts.FAIL,
          evidenceId: record?.id ?? null,
        },
      });
    } catch {
      // The sink never undoes a rehearsal.
    }
  }
}

/** VALIDATION_FAILED naming `field`. */
export function rehearsalInvalid(message: string, field: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", message, { details: { fields: [field.slice(0, 64)] } });
}
