// CI's guard against a prompt change without a manifest update: the committed manifests and golden
// renders must be exactly what the code produces (run `pnpm bundles:update` after an intended change).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILD_BUNDLES } from "../bundles/build-bundles.js";
import { goldenRenderFile, goldenRenders } from "../bundles/element-sources.js";
import { countTokens } from "../tokens/token-counter.js";
import { loadBundleCatalog } from "./bundle-catalog.js";
import {
  DEFAULT_BUNDLE_ROOT,
  goldenRenderDirectory,
  manifestDirectory,
  readGoldenInputs,
} from "./bundle-root.js";
import { manifestFor } from "./manifest-writer.js";

const root = DEFAULT_BUNDLE_ROOT;

describe("the committed prompt bundles", () => {
  it("load without a problem: no stale manifest, no tampered hash, no conflict", () => {
    expect(() => loadBundleCatalog()).not.toThrow();
  });

  it.each(BUILD_BUNDLES.map((b) => [b.descriptor.promptVersion, b] as const))(
    "%s: the manifest is what `pnpm bundles:update` writes",
    (version, bundle) => {
      const path = join(manifestDirectory(root, bundle.descriptor.promptKey), `${version}.json`);
      const committed = JSON.parse(readFileSync(path, "utf8"));
      const produced = JSON.parse(
        JSON.stringify(manifestFor(bundle, readGoldenInputs(root, bundle.goldenInputs))),
      );
      expect(committed).toEqual(produced);
    },
  );

  it.each(BUILD_BUNDLES.map((b) => [b.descriptor.promptVersion, b] as const))(
    "%s: every golden render is committed byte for byte, and nothing else",
    (version, bundle) => {
      const dir = goldenRenderDirectory(root, version);
      const renders = goldenRenders(bundle, readGoldenInputs(root, bundle.goldenInputs));
      expect(readdirSync(dir).sort()).toEqual(renders.map(goldenRenderFile).sort());
      for (const render of renders)
        expect(readFileSync(join(dir, goldenRenderFile(render)), "utf8")).toBe(render.user);
    },
  );

  it.each(
    BUILD_BUNDLES.flatMap((b) => b.budgets.map((p) => [b.descriptor.promptVersion, p.name, b, p] as const)),
  )(
    "%s %s: the system text fits the profile's system budget, and the shares add up",
    (_v, _p, bundle, profile) => {
      expect(countTokens(bundle.renderSystem(profile))).toBeLessThanOrEqual(profile.systemTokens);
      expect(profile.systemTokens + profile.userTokens + profile.outputTokens).toBe(profile.maxTokens);
    },
  );
});
