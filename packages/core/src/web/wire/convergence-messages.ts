// What `GET /platform/admin/api/prompt-quality/convergence` answers: which bundle the release
// registry says executes per scope, and whether every instance serves it. Times are epoch
// milliseconds. Not re-exported from the wire index: only the console page and the API's callers
// read it, and both take it as JSON.

/** An instance's convergence verdict, worst first (an instance takes the worst of its scopes). */
export type ConvergenceVerdict = "SILENT" | "NOT_FOLLOWING" | "STALE" | "PENDING" | "CONVERGED";

/** `GET …/prompt-quality/convergence`: the registry's executing releases and every instance's verdict. */
export type ConvergenceReportJson = {
  generatedAt: number;
  /** How long an instance may serve another bundle after a registry change before it is STALE. */
  boundMs: number;
  /** After how long without a heartbeat an instance is SILENT. */
  silentAfterMs: number;
  scopes: {
    registryScope: string;
    /** The releases that execute in the scope: per prompt key its latest ACTIVE and its CANARY. */
    releases: {
      promptKey: string;
      promptVersion: string;
      bundleHash: string;
      status: "ACTIVE" | "CANARY";
      /** When the row last changed (its state, its hash or its canary fields). */
      changedAt: number;
      /** A CANARY's share (absent: the whole scope) and its narrowing lists. */
      canary: {
        percent: number | null;
        tenants: readonly string[];
        resourceFamilies: readonly string[];
      } | null;
    }[];
  }[];
  instances: {
    instanceId: string;
    startedAt: number;
    lastBeatAt: number;
    verdict: ConvergenceVerdict;
    reason: string;
    /** One entry per scope and prompt key the instance reports. */
    scopes: {
      registryScope: string;
      promptKey: string;
      verdict: Exclude<ConvergenceVerdict, "SILENT">;
      reason: string;
      serving: { promptVersion: string; bundleHash: string; source: string }[];
    }[];
  }[];
};
