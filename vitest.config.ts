import { availableParallelism } from "node:os";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { SlowFirstSequencer } from "./test/support/slow-first-sequencer.js";

// Tests that start the platform as a process or a server (the demo, the CLI's `start`, HTTP stacks).
const INTEGRATION = [
  "test/**/*.test.ts",
  "packages/cli/src/shutdown.test.ts",
  "packages/cli/src/start-command.test.ts",
  "packages/cli/src/start-key-file.test.ts",
];
// The MongoDB adapters: against the in-process wire double, and a real server when MONGODB_URI is set.
const MONGO = [
  "packages/adapters-mongo/**/*.test.ts",
  "test/mongo/**/*.test.ts",
  "packages/cli/src/start-mongo.test.ts",
];
// Real headless Chromium.
const BROWSER = ["test/e2e/**/*.test.ts"];
// Files that need a process of their own: one replaces a module (vi.mock), one counts the process's
// pending timers (another file's leftovers would change the count).
const OWN_PROCESS = [
  "packages/core/src/identity/password/scrypt-password-hasher.security.test.ts",
  "packages/core/src/mfa/adaptive/ai-adaptive-mfa-policy-provider.fallback.test.ts",
];
const ALWAYS_EXCLUDED = ["**/node_modules/**", "**/fixtures/**"];

// Legacy (experimental) decorators: tsyringe's @injectable/@inject. vite 8 compiles TS with oxc.
// Four projects (`pnpm test:unit|integration|browser|mongo`; `pnpm test` runs them all), see test/README.md.
// `isolate: false` shares one module cache per worker across files: the core is imported once per
// worker instead of once per file, the largest part of the suite's time. A file that needs fresh
// modules (or a process of its own) goes to OWN_PROCESS (its own isolated project, `unit-isolated`).
// Each project has its own module graph, so without a cache the core's ~700 sources are transformed
// once per project (four times a run). vitest's file-system module cache (experimental) keeps each
// transform on disk under node_modules/.experimental-vitest-cache, keyed by the file's content and the
// config, so the next project reads it (CI, measured on mongo+unit: 85 s of CPU without, 71 s with).
// On in CI (a fresh clone: the cache lives for one run) and when asked (KEYWARD_VITEST_FS_CACHE=1);
// `pnpm exec vitest --clearCache` empties it.
const FS_MODULE_CACHE = process.env.CI === "true" || process.env.KEYWARD_VITEST_FS_CACHE === "1";

const UNIT = ["packages/*/src/**/*.test.ts", "packages/*/test-support/**/*.test.ts", "scripts/**/*.test.ts"];
const UNIT_ISOLATED: TestProjectInlineConfiguration = {
  extends: true,
  test: { name: "unit-isolated", include: OWN_PROCESS, exclude: ALWAYS_EXCLUDED },
};
const BROWSER_PROJECT: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: "browser",
    include: BROWSER,
    exclude: ALWAYS_EXCLUDED,
    isolate: false,
    // One Chromium for the run; each session opens a context in it (test/e2e/browser-harness.ts).
    globalSetup: ["./test/support/sdk-assets-setup.ts", "./test/e2e/chromium-server.ts"],
  },
};

// The four groups of `pnpm test:unit|integration|mongo|browser` (KEYWARD_VITEST_SPLIT=1, set by those
// scripts): each project has its own module graph, so each worker imports the core once per project.
const SPLIT_PROJECTS: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    test: {
      name: "unit",
      include: UNIT,
      exclude: [...ALWAYS_EXCLUDED, ...INTEGRATION, ...MONGO, ...BROWSER, ...OWN_PROCESS],
      isolate: false,
    },
  },
  UNIT_ISOLATED,
  {
    extends: true,
    test: {
      name: "integration",
      include: INTEGRATION,
      exclude: [...ALWAYS_EXCLUDED, ...MONGO, ...BROWSER],
      isolate: false,
    },
  },
  { extends: true, test: { name: "mongo", include: MONGO, exclude: ALWAYS_EXCLUDED, isolate: false } },
  BROWSER_PROJECT,
];

// `pnpm test` (and CI): every group but the two files that need a process of their own in one project,
// so a worker imports the core once for all of them instead of once per group (the suite's largest
// fixed cost), and no project waits for the last file of the one before it.
const MERGED_PROJECTS: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    test: {
      name: "node",
      include: [...UNIT, ...INTEGRATION, ...MONGO, ...BROWSER],
      exclude: [...ALWAYS_EXCLUDED, ...OWN_PROCESS],
      isolate: false,
      globalSetup: BROWSER_PROJECT.test?.globalSetup,
    },
  },
  UNIT_ISOLATED,
];
const SPLIT = process.env.KEYWARD_VITEST_SPLIT === "1";

export default defineConfig({
  oxc: { decorator: { legacy: true } },
  test: {
    experimental: { fsModuleCache: FS_MODULE_CACHE },
    setupFiles: ["./test/setup.ts"],
    // The browser SDK's prebuilt files, written from the sources once per run (the apps serve them).
    globalSetup: ["./test/support/sdk-assets-setup.ts"],
    testTimeout: 20_000,
    // A stack or a browser session started in beforeAll: 10 s (the default) timed two files out at
    // load 15; a bound only, a hook that passes takes what it took.
    hookTimeout: 30_000,
    // Quiet servers: no access line per request (thousands in a run) unless the caller asks for them
    // (`PLATFORM_HTTP_ACCESS_LOG_ENABLED=true pnpm test`); a test about the access log sets the
    // property in code, which wins over the environment. Child processes inherit it.
    env: { PLATFORM_HTTP_ACCESS_LOG_ENABLED: process.env.PLATFORM_HTTP_ACCESS_LOG_ENABLED ?? "false" },
    // The longest files start first in their project (a fresh clone has no timings to go by).
    sequence: { sequencer: SlowFirstSequencer },
    pool: "forks",
    // vitest's default is one worker fewer than the cores: a single worker on a 2-core CI machine.
    // Every core gets one (the main process mostly waits); one value for all projects, which share
    // one queue.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: SPLIT ? SPLIT_PROJECTS : MERGED_PROJECTS,
  },
});
