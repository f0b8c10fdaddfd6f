// The shadow worker from the installed, built package under plain node (no TypeScript loader): the
// built executor picks the built thread entry (shadow-worker-thread.js beside it), the worker builds
// its engine from the bundle manifests copied beside this file and answers one v20 run with its
// presealed package. The executor is internal (not an export), so its built modules are imported by
// file URL. Prints one JSON line.
import "reflect-metadata";
import { readFileSync } from "node:fs";

const core = new URL("./node_modules/@keyward/core/dist/", import.meta.url);
const internal = (path) => import(new URL(path, core).href);
const { ShadowWorkerExecutor } = await internal("governance/shadow/shadow-worker-executor.js");
const { shadowWorkerEntry } = await internal("governance/shadow/shadow-worker-entry.js");
const { loadBundleCatalog } = await internal("prompts/manifest/bundle-catalog.js");
const { selectionFromCatalog } = await internal("decisions/engine/bundle-selection.js");
const { parsePromptInput } = await internal("prompts/input/prompt-input.js");

const V20 = "2026.09.15-v20";
const bundleRoot = new URL("./prompt-bundles", import.meta.url).pathname;
const catalog = loadBundleCatalog({ root: bundleRoot });
const lines = [];
const logger = {
  info: () => {},
  warn: (message) => lines.push(message),
  error: (message) => lines.push(message),
};
// The fallback refuses, so an answer can only come from the worker.
const refuse = {
  run: async () => {
    throw new Error("the fallback ran: the worker did not serve");
  },
  stats: () => ({ executor: "in-thread", workerRuns: 0, inThreadRuns: 0, workerFailures: 0 }),
  stop: async () => {},
};
const executor = new ShadowWorkerExecutor({
  init: {
    bundleRoot,
    instanceId: "node-1",
    engine: { escalationConfidence: 0.6, timeouts: { L1: 5000, L2: 10000 } },
  },
  fallback: refuse,
  logger,
});
try {
  const started = await executor.started;
  const at = Date.now();
  const input = parsePromptInput(
    JSON.parse(
      readFileSync(
        new URL("./prompt-bundles/golden/inputs/external-admin-delete.json", import.meta.url),
        "utf8",
      ),
    ),
  );
  const job = {
    id: "pkg-dist-1",
    at,
    input,
    event: { id: "evt-dist-1", kind: "SIGN_IN_COMPLETED", at, userId: "alice" },
    selection: selectionFromCatalog(catalog, V20, "SHADOW"),
  };
  const { outcome, presealed } = started ? await executor.run(job, new AbortController().signal) : {};
  console.log(
    JSON.stringify({
      entry: shadowWorkerEntry().pathname.split("/").slice(-3).join("/"),
      started,
      ...executor.stats(),
      bundleVersion: outcome?.bundleVersion,
      presealedId: presealed?.header.id,
      packageHashLength: presealed?.packageHash.length,
      warnings: lines,
    }),
  );
} finally {
  await executor.stop();
}
