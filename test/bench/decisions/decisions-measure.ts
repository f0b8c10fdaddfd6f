import { performance } from "node:perf_hooks";
import { DEFAULT_BUNDLE_ROOT, loadBundleCatalog, parsePromptInput } from "@keyward/core/prompts";
import { ManualClock } from "@keyward/core/testing";
import { OfflineAnalyst } from "../../../packages/core/src/decisions/analyst/offline-analyst.js";
import {
  type BundleSelection,
  selectionFromCatalog,
} from "../../../packages/core/src/decisions/engine/bundle-selection.js";
import { LayeredDecisionEngine } from "../../../packages/core/src/decisions/engine/layered-decision-engine.js";
import type { PromptInput } from "../../../packages/core/src/prompts/input/prompt-input.js";
import { readGoldenInputs } from "../../../packages/core/src/prompts/manifest/bundle-root.js";

/** The golden inputs every layout renders (the prompts module's committed fixtures). */
export const INPUTS = [
  "internal-read",
  "external-admin-delete",
  "every-fact-missing",
  "long-history",
] as const;

/** Median render time of one prompt (system + user) per bundle, profile and input. */
export interface RenderRow {
  version: string;
  layout: string;
  profile: string;
  input: string;
  medianUs: number;
  p99Us: number;
  userChars: number;
}

/** Decisions per second through the layered engine over the offline analyst. */
export interface EngineRow {
  version: string;
  input: string;
  decisionsPerSecond: number;
  modelCallsPerDecision: number;
  action: string;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

function selections(): BundleSelection[] {
  const catalog = loadBundleCatalog();
  return ["2026.07.30-v19", "2026.09.15-v20"].map((v) => selectionFromCatalog(catalog, v, "CONFIGURATION"));
}

/**
 * The context the pipeline builds for the demo's most common event: `user` signing in from the
 * machine itself (no request, no device, no pattern; a new account).
 */
const DEMO_SIGN_IN = {
  eventId: "evt-demo-sign-in",
  request: {
    subject: "user",
    time: "2026-07-30T10:00:00.000Z",
    roles: ["ROLE_USER"],
    permissions: [],
    network: "127.0.0.1",
  },
  identity: { accountAgeDays: 0 },
  context: { coverage: ["identity", "request"], evidence: ["event SIGN_IN_COMPLETED signInMethod=rest"] },
  pastRecords: [],
  markedMissing: ["request.device"],
};

/** The golden inputs and the demo sign-in, by name. */
export function inputs(): Map<string, PromptInput> {
  const raw = readGoldenInputs(DEFAULT_BUNDLE_ROOT, [...INPUTS]);
  const golden = INPUTS.map((name) => [name, parsePromptInput(raw.get(name))] as const);
  return new Map([...golden, ["demo-sign-in", parsePromptInput(DEMO_SIGN_IN)]]);
}

/** Renders each input with each profile of each runnable bundle `iterations` times (after a warm-up). */
export function measureRenders(iterations: number): RenderRow[] {
  const rows: RenderRow[] = [];
  const byName = inputs();
  for (const { bundle, version } of selections()) {
    for (const profile of bundle.budgets) {
      for (const [name, input] of byName) {
        for (let i = 0; i < 20; i++) bundle.render(input, profile);
        const times: number[] = [];
        let userChars = 0;
        for (let i = 0; i < iterations; i++) {
          const t = performance.now();
          const r = bundle.render(input, profile);
          times.push((performance.now() - t) * 1000);
          userChars = r.user.length;
        }
        times.sort((a, b) => a - b);
        rows.push({
          version,
          layout: bundle.layout,
          profile: profile.name,
          input: name,
          medianUs: quantile(times, 0.5),
          p99Us: quantile(times, 0.99),
          userChars,
        });
      }
    }
  }
  return rows;
}

/** Runs whole decisions (render, analyst, inspector, floors, L2 when asked) for `durationMs` per input. */
export async function measureEngine(durationMs: number): Promise<EngineRow[]> {
  const rows: EngineRow[] = [];
  const model = new OfflineAnalyst();
  let calls = 0;
  const counting = {
    name: model.name,
    external: false,
    complete: (...args: Parameters<OfflineAnalyst["complete"]>) => {
      calls++;
      return model.complete(...args);
    },
  };
  const engine = new LayeredDecisionEngine({
    model: counting,
    clock: new ManualClock(0),
    escalationConfidence: 0.7,
    timeouts: { L1: 5_000, L2: 20_000 },
  });
  const signal = new AbortController().signal;
  for (const selection of selections()) {
    for (const [name, input] of inputs()) {
      for (let i = 0; i < 20; i++) await engine.decide(input, selection, signal);
      calls = 0;
      let n = 0;
      let action = "";
      const start = performance.now();
      while (performance.now() - start < durationMs) {
        action = (await engine.decide(input, selection, signal)).record.action;
        n++;
      }
      const seconds = (performance.now() - start) / 1000;
      rows.push({
        version: selection.version,
        input: name,
        decisionsPerSecond: Math.round(n / seconds),
        modelCallsPerDecision: Math.round((calls / n) * 100) / 100,
        action,
      });
    }
  }
  return rows;
}
