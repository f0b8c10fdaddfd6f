import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { httpPlugin, mailPlugin } from "@keyward/adapters-http";
import { mongoPlugin } from "@keyward/adapters-mongo";
import {
  authzPlugin,
  createPromptInspectionPlugin,
  identityPlugin,
  mfaPlugin,
  type PlatformPlugin,
  recoveryCodesPlugin,
  totpPlugin,
  zeroTrustPlugin,
} from "@keyward/core";
import { decisionsPlugin, decisionsPipelinePlugin } from "@keyward/core/decisions";
import { promptGovernancePlugin } from "@keyward/core/governance";
import { promptsPlugin } from "@keyward/core/prompts";
import { describe, expect, it } from "vitest";
import { sealedEvidencePlugin } from "../../packages/core/src/decisions/evidence/sealed-evidence-plugin.js";
import { kernelPlugin } from "../../packages/core/src/kernel/kernel-plugin.js";

/** Every plugin the platform ships; a new module adds itself here so its keys are checked. */
const PLUGINS: PlatformPlugin[] = [
  kernelPlugin,
  identityPlugin,
  mfaPlugin,
  totpPlugin,
  recoveryCodesPlugin,
  httpPlugin,
  mailPlugin,
  authzPlugin,
  zeroTrustPlugin,
  promptsPlugin,
  decisionsPlugin,
  decisionsPipelinePlugin,
  sealedEvidencePlugin,
  promptGovernancePlugin,
  createPromptInspectionPlugin(),
  // Declaring properties needs no connection: the client is created when the plugin registers.
  mongoPlugin({ uri: "mongodb://127.0.0.1/properties" }),
];

const table = readFileSync(fileURLToPath(new URL("../../docs/properties.md", import.meta.url)), "utf8");
const rows = new Map(
  [...table.matchAll(/^\| `([^`]+)` \| ([^|]+) \| `([^`]*)` \| ([^|]+) \| (.+) \|$/gm)].map((m) => [
    m[1]!,
    { type: m[2]!.trim(), default: m[3]!, module: m[4]!.trim(), effect: m[5]!.trim() },
  ]),
);

describe("docs/properties.md", () => {
  const definitions = PLUGINS.flatMap((p) => (p.properties ?? []).map((d) => ({ plugin: p.id, d })));

  it.each(definitions.map(({ plugin, d }) => [d.key, plugin, d] as const))(
    "lists %s (module %s) with its default",
    (key, plugin, d) => {
      const row = rows.get(key);
      expect(row, `${key} is missing from docs/properties.md`).toBeDefined();
      expect(row!.default).toBe(String(d.default));
      expect(row!.module).toBe(plugin);
      expect(row!.effect.startsWith("*inert*")).toBe(d.inert !== undefined);
    },
  );

  it("lists no key that no module declares", () => {
    const declared = new Set(definitions.map(({ d }) => d.key));
    expect([...rows.keys()].filter((k) => !declared.has(k))).toEqual([]);
  });
});
