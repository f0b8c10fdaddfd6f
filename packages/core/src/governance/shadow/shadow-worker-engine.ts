import type { BundleSelection } from "../../decisions/engine/bundle-selection.js";
import {
  inProcessDecisionMaker,
  type InProcessEngineOptions,
} from "../../decisions/engine/in-process-decision-maker.js";
import { encryptPayloadBody } from "../../decisions/evidence/payload-cipher.js";
import { sealPackage } from "../../decisions/evidence/sealed-package.js";
import { SystemClock } from "../../kernel/clock.js";
import { loadBundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import type { ShadowJob, ShadowRunResult } from "./shadow-executor.js";
import { shadowEvidencePackage } from "./shadow-evidence-package.js";

/** What a shadow worker is started with (structured-clonable: no keys, no code). */
export interface ShadowWorkerInit {
  /** The serving catalog's bundle root: the worker reads the same manifests. */
  readonly bundleRoot: string;
  /** The evidence chain the packages are sealed into (the instance id). */
  readonly instanceId: string;
  readonly engine: InProcessEngineOptions;
}

/** A job as it crosses to the worker: the selection without its bundle code (the worker has its own). */
export type ShadowWorkerJob = Omit<ShadowJob, "selection"> & {
  readonly selection: Omit<BundleSelection, "bundle">;
};

/** The worker's answer to one job; `unavailable` when its catalog does not run that bundle hash. */
export type ShadowWorkerAnswer = ShadowRunResult | { readonly unavailable: true };

/** A job without the selection's code, as posted to a worker. */
export function shadowWorkerJobOf(job: ShadowJob): ShadowWorkerJob {
  const { bundle: _code, ...selection } = job.selection;
  return { ...job, selection };
}

/**
 * The shadow worker's engine: the build's bundles over the same manifests, the layered engine over
 * the built-in analyst, and the keyless part of sealing (hashes, the payload under a fresh data key),
 * so the serving thread only wraps the key and appends to the chain. Runs in the worker; tests call it
 * on their own thread.
 */
export function shadowWorkerEngine(init: ShadowWorkerInit): {
  run(job: ShadowWorkerJob, signal: AbortSignal): Promise<ShadowWorkerAnswer>;
} {
  const catalog = loadBundleCatalog({ root: init.bundleRoot });
  const maker = inProcessDecisionMaker(new SystemClock(), init.engine);
  return {
    async run(job, signal) {
      const entry = catalog.find(job.selection.version);
      if (entry?.bundle === undefined || entry.manifest.bundleHash !== job.selection.bundleHash)
        return { unavailable: true };
      const selection: BundleSelection = { ...job.selection, bundle: entry.bundle };
      const outcome = await maker.decide({ input: job.input, event: job.event, selection }, signal);
      const pkg = shadowEvidencePackage({ ...job, selection, outcome });
      const sealed = sealPackage(pkg, init.instanceId);
      const body = encryptPayloadBody(sealed.payload!, job.id, sealed.packageHash);
      return { outcome, presealed: { header: sealed.header, packageHash: sealed.packageHash, body } };
    },
  };
}
