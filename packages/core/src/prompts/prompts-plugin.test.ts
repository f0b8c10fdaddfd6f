import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createPlatform } from "../kernel/platform.js";
import { BundleCatalog } from "./bundle-catalog-token.js";
import { DEFAULT_BUNDLE_ROOT } from "./manifest/bundle-root.js";
import { createPromptsPlugin, promptsPlugin } from "./prompts-plugin.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("promptsPlugin", () => {
  it("starts with the build's catalog", async () => {
    const platform = createPlatform({ plugins: [promptsPlugin] });
    await platform.start();
    expect(platform.resolve(BundleCatalog).buildDefault).toBe("2026.07.30-v19");
    await platform.stop();
  });

  it("stops start-up on a stale manifest, naming the manifest and the element", async () => {
    const root = join(mkdtempSync(join(tmpdir(), "prompts-plugin-")), "prompt-bundles");
    dirs.push(join(root, ".."));
    cpSync(DEFAULT_BUNDLE_ROOT, root, { recursive: true });
    const input = join(root, "golden", "inputs", "every-fact-missing.json");
    writeFileSync(
      input,
      JSON.stringify({ ...JSON.parse(readFileSync(input, "utf8")), eventId: "evt-other" }),
    );
    const platform = createPlatform({ plugins: [createPromptsPlugin({ root })] });
    // The kernel reports a failed start-up hook as CONFIGURATION_INVALID with the hook's error as cause.
    await expect(platform.start()).rejects.toMatchObject({
      message: expect.stringContaining("2026.07.30-v19.json: element B3 (Golden render)"),
      cause: { code: "PROMPT_ELEMENT_STALE" },
    });
  });
});
