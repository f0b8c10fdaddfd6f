import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_BUNDLE_ROOT, goldenRenderDirectory } from "../../manifest/bundle-root.js";
import { V20_DICTIONARY } from "./v20-dictionary.js";

const page = readFileSync(
  fileURLToPath(new URL("../../../../../../docs/prompt-v20-dictionary.md", import.meta.url)),
  "utf8",
);

describe("docs/prompt-v20-dictionary.md", () => {
  it("lists every entry of the dictionary with all its fields, in order", () => {
    const rows = [
      ...page.matchAll(
        /^\| (\S+) \(cap (\d+)\) \| `([^`]+)` \| (\S+) \| `([^`]+)` \| `([^`]+)` \| ([^|]+) \| `([^`]+)` \|$/gm,
      ),
    ];
    const documented = rows.map(([, block, cap, key, name, source, form, missingText, note]) => ({
      block: block === "PAST" ? "" : block,
      cap: Number(cap),
      key,
      name,
      source,
      form,
      missingText: missingText!.trim(),
      note,
    }));
    const code = V20_DICTIONARY.blocks.flatMap((b) =>
      b.entries.map((e) => ({ block: b.name, cap: b.cap, ...e })),
    );
    expect(documented).toEqual(code);
  });

  it.each(["internal-read", "partly-known", "every-fact-missing"])(
    "shows the committed L1 render of %s",
    (name) => {
      const render = readFileSync(
        join(goldenRenderDirectory(DEFAULT_BUNDLE_ROOT, "2026.09.15-v20"), `${name}.L1-standard.txt`),
        "utf8",
      );
      expect(page).toContain(`\`\`\`text\n${render}\`\`\``);
    },
  );
});
