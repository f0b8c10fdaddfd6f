import type { Clock } from "../kernel/clock.js";
import type { IdGenerator } from "../kernel/id-generator.js";
import type { BundleCatalog } from "../prompts/bundle-catalog-token.js";
import type { ReleaseEvidenceLedger } from "./evidence/release-evidence-ledger.js";
import type { PolicySetSource } from "./policy-sets/policy-set-hash.js";
import type { HeadWriteRetry } from "./registry/head-writer.js";
import type { ReleaseRegistry } from "./registry/release-registry.js";
import type { ReleaseChangeRecorder } from "./release-change-recorder.js";
import type { EvidenceGate } from "./release-governance.js";

/** What the registry's services work with (one options object, shared by transitions, rollbacks and approvals). */
export interface GovernanceServiceOptions {
  readonly registry: ReleaseRegistry;
  readonly ledger: ReleaseEvidenceLedger;
  /** The build's bundles: what runs, what each manifest declares. */
  readonly catalog: BundleCatalog;
  /** The evidence checks of the gate. */
  readonly gate: EvidenceGate;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly recorder: ReleaseChangeRecorder;
  /** Present on a host with policy sets (the authorization module's PolicyRepository). */
  readonly policySets?: PolicySetSource | undefined;
  /** How long an emergency stop waits for a second administrator (milliseconds). */
  readonly approvalDeadlineMs: number;
  /** Retries of a lost compare-and-set; default DEFAULT_HEAD_WRITE_RETRY. */
  readonly retry?: HeadWriteRetry | undefined;
}
