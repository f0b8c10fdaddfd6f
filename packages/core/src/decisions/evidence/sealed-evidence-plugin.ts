import type { DependencyContainer, InjectionToken } from "tsyringe";
import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock } from "../../kernel/clock.js";
import { DistributedLock } from "../../kernel/coordination/distributed-lock.js";
import { PeriodicPoll } from "../../kernel/coordination/periodic-poll.js";
import { IdGenerator } from "../../kernel/id-generator.js";
import { InstanceIdentity } from "../../kernel/instance-identity.js";
import { KeyRing } from "../../kernel/keys/key-ring.js";
import { Logger } from "../../kernel/logger.js";
import type { PlatformPlugin } from "../../kernel/plugin.js";
import { RouteTable } from "../../web/route-table.js";
import { EvidenceChainEndpoint } from "../admin/evidence-chain-endpoint.js";
import { EvidenceCapture } from "./evidence-capture.js";
import { EvidenceChainWriter } from "./evidence-chain-writer.js";
import { CheckpointSigner } from "./evidence-checkpoint.js";
import { EvidenceErasure } from "./evidence-erasure.js";
import { EvidenceRetention } from "./evidence-retention.js";
import { InspectionOutcomes } from "./inspection-outcomes.js";
import { PayloadCipher } from "./payload-cipher.js";
import { SEALED_EVIDENCE_PROPERTIES, sealedEvidenceSettings } from "./sealed-evidence.properties.js";
import { SealedEvidenceStore } from "./sealed-evidence-store.js";
import { SealedEvidence, SealedEvidenceToken } from "./sealed-evidence-service.js";
import { AccountDeletionHook } from "../../identity/users/admin/account-deletion-hook.js";

/** Entries between two signed checkpoints of a chain (a retention round also checkpoints its head). */
export const CHECKPOINT_EVERY = 100;
/** Milliseconds between two retention rounds. */
export const RETENTION_INTERVAL_MS = 60 * 60_000;

/** DI token of the chain writer (internal to the evidence). */
export const EvidenceChainWriterToken: InjectionToken<EvidenceChainWriter> = Symbol.for(
  "platform.EvidenceChainWriter",
);
/** DI token of the checkpoint signer. */
export const CheckpointSignerToken: InjectionToken<CheckpointSigner> =
  Symbol.for("platform.CheckpointSigner");
/** DI token of the erasure service. */
export const EvidenceErasureToken: InjectionToken<EvidenceErasure> = Symbol.for("platform.EvidenceErasure");
/** DI token of the retention jobs. */
export const EvidenceRetentionToken: InjectionToken<EvidenceRetention> = Symbol.for(
  "platform.EvidenceRetention",
);

/**
 * The sealed evidence (issue 32): the SealedEvidence service the decision writer and the shadow
 * runner record through, the chain writer with its checkpoint signer (key-ring purpose
 * `evidence.checkpoint`), the payload cipher (`evidence.payload`), erasure, the hourly retention round
 * under the DistributedLock, and `GET /platform/admin/api/prompt-inspection/chain` (ADMIN). Included by
 * the decision pipeline, whose plugin registers the SealedEvidenceStore default.
 */
export const sealedEvidencePlugin: PlatformPlugin = {
  id: "sealed-evidence",
  properties: SEALED_EVIDENCE_PROPERTIES,
  register(ctx) {
    const settings = sealedEvidenceSettings(ctx.properties);
    const newKid = (c: DependencyContainer) => () => `ev-${c.resolve(IdGenerator).id()}`.slice(0, 64);
    ctx.registerDefault(CheckpointSignerToken, {
      useFactory: (c) => new CheckpointSigner({ keys: c.resolve(KeyRing), newKid: newKid(c) }),
    });
    ctx.registerDefault(EvidenceChainWriterToken, {
      useFactory: (c) =>
        new EvidenceChainWriter({
          store: c.resolve(SealedEvidenceStore),
          signer: c.resolve(CheckpointSignerToken),
          now: () => c.resolve(Clock).now(),
          checkpointEvery: CHECKPOINT_EVERY,
        }),
    });
    ctx.registerDefault(SealedEvidenceToken, {
      useFactory: (c) =>
        new SealedEvidence({
          store: c.resolve(SealedEvidenceStore),
          chain: c.resolve(EvidenceChainWriterToken),
          cipher: new PayloadCipher({ keys: c.resolve(KeyRing), newKid: newKid(c) }),
          signer: c.resolve(CheckpointSignerToken),
          capture: new EvidenceCapture({ enabled: settings.captureEnabled, ...settings }),
          instanceId: c.resolve(InstanceIdentity).instanceId,
          audit: c.resolve(AuditSink),
        }),
    });
    ctx.registerDefault(EvidenceErasureToken, {
      useFactory: (c) =>
        new EvidenceErasure({
          store: c.resolve(SealedEvidenceStore),
          chain: c.resolve(EvidenceChainWriterToken),
          audit: c.resolve(AuditSink),
          now: () => c.resolve(Clock).now(),
        }),
    });
    // Deleting an account erases the user's sealed prompts and contexts (their payload keys destroyed;
    // the chain keeps the hashes and an ERASURE entry), before the account is removed.
    ctx.registerMember(AccountDeletionHook, {
      useFactory: (c) => {
        const erasure: EvidenceErasure = c.resolve(EvidenceErasureToken);
        return {
          id: "sealed-evidence-erasure",
          accountDeleting: async (account) =>
            void (await erasure.eraseUser(account.id, "system:account-deletion")),
        };
      },
    });
    ctx.registerDefault(EvidenceRetentionToken, { useFactory: (c) => retentionOf(c, settings) });
    let poll: PeriodicPoll | undefined;
    ctx.onStart("sealed-evidence", (c) => {
      addChainRoute(c);
      if (!settings.retentionEnabled) return;
      const retention: EvidenceRetention = c.resolve(EvidenceRetentionToken);
      poll = new PeriodicPoll({
        intervalMs: RETENTION_INTERVAL_MS,
        run: async () => void (await retention.runOnce()),
        logger: c.resolve(Logger),
        failure: "sealed evidence retention round failed",
        recovered: "sealed evidence retention round recovered",
      });
      poll.start();
    });
    ctx.onStop("sealed-evidence", async () => {
      await poll?.stop();
      poll = undefined;
    });
  },
};

function retentionOf(
  c: DependencyContainer,
  settings: ReturnType<typeof sealedEvidenceSettings>,
): EvidenceRetention {
  const identity = c.resolve(InstanceIdentity);
  return new EvidenceRetention({
    store: c.resolve(SealedEvidenceStore),
    chain: c.resolve(EvidenceChainWriterToken),
    lock: c.resolve(DistributedLock),
    outcomes: c.isRegistered(InspectionOutcomes, true) ? c.resolve(InspectionOutcomes) : undefined,
    audit: c.resolve(AuditSink),
    now: () => c.resolve(Clock).now(),
    owner: `${identity.instanceId}:retention`,
    instanceId: identity.instanceId,
    periodMs: settings.periodMs,
    cleanPeriodMs: settings.cleanPeriodMs,
  });
}

function addChainRoute(c: DependencyContainer): void {
  if (!c.isRegistered(RouteTable, true)) return;
  const endpoint = new EvidenceChainEndpoint({
    store: c.resolve(SealedEvidenceStore),
    signer: c.resolve(CheckpointSignerToken),
    audit: c.resolve(AuditSink),
  });
  c.resolve(RouteTable).add(endpoint.route());
}
