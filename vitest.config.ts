import { defineConfig } from "vitest/config";

// Legacy (experimental) decorators: tsyringe's @injectable/@inject. vite 8 compiles TS with oxc.
export default defineConfig({
  oxc: { decorator: { legacy: true } },
  test: {
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/*/test-support/**/*.test.ts",
      "test/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/fixtures/**"],
    setupFiles: ["./test/setup.ts"],
    testTimeout: 20_000,
    pool: "forks",
  },
});
