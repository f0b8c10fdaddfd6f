import type { Clock } from "../../kernel/clock.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { InMemoryKeyStore } from "../../kernel/keys/in-memory-key-store.js";
import { KeyRing } from "../../kernel/keys/key-ring.js";
import { KeySealer } from "../../kernel/keys/key-sealer.js";
import { parsePromptInput } from "../../prompts/input/prompt-input.js";
import { EvidenceCapture, type EvidenceCaptureSettings } from "./evidence-capture.js";
import { EvidenceChainWriter } from "./evidence-chain-writer.js";
import { CheckpointSigner } from "./evidence-checkpoint.js";
import type { EvidencePackage } from "./evidence-package.js";
import { InMemorySealedEvidenceStore } from "./in-memory-sealed-evidence-store.js";
import { PayloadCipher } from "./payload-cipher.js";
import type { SealedEvidenceStore } from "./sealed-evidence-store.js";
import { SealedEvidence } from "./sealed-evidence-service.js";

/** Options of `sealedEvidenceFixture`. */
export interface SealedEvidenceFixtureOptions {
  readonly clock: Clock;
  readonly store?: SealedEvidenceStore;
  readonly instanceId?: string;
  readonly capture?: Partial<EvidenceCaptureSettings>;
  readonly checkpointEvery?: number;
  /** Shares a key ring (two writers of one platform). */
  readonly keys?: KeyRing;
}

/** The sealed evidence over in-memory adapters and a real key ring, for tests (capture everything by default). */
export function sealedEvidenceFixture(o: SealedEvidenceFixtureOptions) {
  const store = o.store ?? new InMemorySealedEvidenceStore(1000);
  const audit = new InMemoryAuditSink(10_000, o.clock);
  let n = 0;
  const newKid = () => `k${++n}-${Math.random().toString(36).slice(2, 8)}`;
  const keys =
    o.keys ??
    new KeyRing({ store: new InMemoryKeyStore(), sealer: KeySealer.ephemeral(), now: () => o.clock.now() });
  const signer = new CheckpointSigner({ keys, newKid });
  const chain = new EvidenceChainWriter({
    store,
    signer,
    now: () => o.clock.now(),
    checkpointEvery: o.checkpointEvery ?? 100,
  });
  const instanceId = o.instanceId ?? "node-1";
  const sealed = new SealedEvidence({
    store,
    chain,
    cipher: new PayloadCipher({ keys, newKid }),
    signer,
    capture: new EvidenceCapture({
      enabled: true,
      fullCaptureAfterChange: 1_000_000,
      samplePercent: 100,
      ...o.capture,
    }),
    instanceId,
    audit,
  });
  /** The package `id` as recorded, opened (prompts and input empty when not sealed). */
  const get = async (id: string): Promise<EvidencePackage | undefined> => {
    const read = await sealed.read(id, { principal: "test" });
    if (read === undefined) return undefined;
    const { record, payload } = read;
    return {
      id: record.id,
      eventId: record.eventId,
      ...(record.correlationId === undefined ? {} : { correlationId: record.correlationId }),
      at: record.at,
      prompts: payload?.prompts ?? [],
      input: payload?.input ?? ({} as EvidencePackage["input"]),
      metadata: record.metadata,
    };
  };
  const recent = async (limit: number): Promise<EvidencePackage[]> => {
    const records = await store.recentRecords(limit);
    return Promise.all(records.map(async (r) => (await get(r.id))!));
  };
  return { store, audit, keys, signer, chain, sealed, instanceId, get, recent };
}

/** What `evidencePackageOf` may change of its sample package. */
export interface SamplePackageOptions {
  readonly at?: number;
  readonly correlationId?: string;
  readonly prompts?: EvidencePackage["prompts"];
  /** The input's request subject (absent: an input with no request). */
  readonly subject?: string;
  readonly metadata?: Partial<EvidencePackage["metadata"]>;
}

/** A sample evidence package `id` of a v19 build-default sign-in decision of `alice`, for tests. */
export function evidencePackageOf(id: string, o: SamplePackageOptions = {}): EvidencePackage {
  return {
    id,
    eventId: `evt-${id}`,
    correlationId: o.correlationId ?? `corr-${id}`,
    at: o.at ?? 5_000,
    prompts: o.prompts ?? [{ layer: "L1", system: "system text", user: `user text of ${id}` }],
    input: parsePromptInput(
      o.subject === undefined
        ? { eventId: `evt-${id}` }
        : { eventId: `evt-${id}`, request: { subject: o.subject } },
    ),
    metadata: {
      eventKind: "SIGN_IN_COMPLETED",
      userId: "alice",
      action: "ALLOW",
      riskScore: 0.1,
      confidence: 0.9,
      layer: "L1",
      bundleVersion: "v19",
      bundleHash: "h19",
      selectionSource: "BUILD_DEFAULT",
      stage: "ENFORCE",
      model: { id: "m", external: false },
      timings: { totalMs: 3 },
      redacted: [],
      ...o.metadata,
    },
  };
}
