import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { BundleCatalog, CatalogEntry } from "@keyward/core/prompts";
import { bundlesEvaluateCommand } from "./bundles-evaluate.js";
import { bundlesRehearseCommand } from "./bundles-rehearse.js";
import {
  type CliCommand,
  CliFailure,
  CliUsageError,
  type CommandInput,
  EXIT_OK,
  type OptionSpec,
} from "../command-line/cli-command.js";

const ROOT_OPTION: OptionSpec = {
  name: "root",
  value: "<dir>",
  description: "The prompt-bundles directory (default: the build's own)",
};

// Loaded on use: the prompts module brings the tokenizer's tables, which no other command needs.
async function catalog(input: CommandInput): Promise<BundleCatalog> {
  const { loadBundleCatalog } = await import("@keyward/core/prompts");
  return loadBundleCatalog(
    typeof input.options.root === "string" ? { root: resolve(input.options.root) } : {},
  );
}

function noPositionals(input: CommandInput): void {
  if (input.positionals.length > 0) throw new CliUsageError(`Unexpected argument: ${input.positionals[0]}`);
}

const version = (e: CatalogEntry) => e.manifest.descriptor.promptVersion;

function summary(c: BundleCatalog, e: CatalogEntry) {
  return {
    version: version(e),
    layout: e.manifest.layout,
    runnable: e.bundle !== undefined,
    buildDefault: version(e) === c.buildDefault,
    releaseStatus: e.manifest.descriptor.releaseStatus,
    rollbackTargets: e.manifest.rollbackTargets,
    bundleHash: e.manifest.bundleHash,
    file: e.file,
  };
}

/** `platform bundles list`: every manifest, runnable or record, with its hash. */
const listCommand: CliCommand = {
  name: ["bundles", "list"],
  summary: "List the prompt bundles: runnable ones and records, with their hashes",
  options: [ROOT_OPTION],
  async run(input) {
    noPositionals(input);
    const c = await catalog(input);
    const rows = c.entries.map((e) => summary(c, e));
    if (input.json) input.io.out(JSON.stringify({ ok: true, bundles: rows }));
    else
      input.io.out(
        rows
          .map((r) => {
            const kind = r.runnable ? (r.buildDefault ? "runnable, build default" : "runnable") : "record";
            return `${r.version.padEnd(16)} ${r.layout.padEnd(22)} ${kind.padEnd(24)} ${r.releaseStatus.padEnd(11)} ${r.bundleHash}`;
          })
          .join("\n"),
      );
    return EXIT_OK;
  },
};

/** `platform bundles verify`: the checks start-up runs; a problem names the manifest and the element. */
const verifyCommand: CliCommand = {
  name: ["bundles", "verify"],
  summary: "Check every manifest: schema, stored hashes, duplicates, runnable bundles against the code",
  options: [ROOT_OPTION],
  async run(input) {
    noPositionals(input);
    const c = await catalog(input);
    const runnable = c.entries.filter((e) => e.bundle).length;
    const text = `OK: ${c.entries.length} manifests, ${runnable} runnable and ${c.entries.length - runnable} records; every hash matches`;
    input.io.out(input.json ? JSON.stringify({ ok: true, manifests: c.entries.length, runnable }) : text);
    return EXIT_OK;
  },
};

/** `platform bundles hash [version]`: the bundle hash and the eleven element records. */
const hashCommand: CliCommand = {
  name: ["bundles", "hash"],
  summary: "Show the bundle hash and the eleven element records of one bundle, or of all",
  args: "[version]",
  options: [ROOT_OPTION],
  async run(input) {
    if (input.positionals.length > 1) throw new CliUsageError(`Unexpected argument: ${input.positionals[1]}`);
    const c = await catalog(input);
    const wanted = input.positionals[0];
    const entries = wanted === undefined ? c.entries : c.entries.filter((e) => version(e) === wanted);
    if (entries.length === 0) throw new CliFailure(`No manifest of version ${wanted}`, "NOT_FOUND");
    if (input.json) {
      const out = entries.map((e) => ({
        version: version(e),
        bundleHash: e.manifest.bundleHash,
        elements: e.manifest.elements,
      }));
      input.io.out(JSON.stringify({ ok: true, bundles: out }));
      return EXIT_OK;
    }
    const blocks = entries.map((e) =>
      [
        `${version(e)} ${e.manifest.bundleHash}`,
        ...Object.entries(e.manifest.elements).map(
          ([id, r]) => `  ${id.padEnd(4)} ${r.name.padEnd(21)} ${r.state.padEnd(12)} ${r.digest}`,
        ),
      ].join("\n"),
    );
    input.io.out(blocks.join("\n\n"));
    return EXIT_OK;
  },
};

/** `platform bundles render <version> --input <file>`: the prompt a runnable bundle draws for an input. */
const renderCommand: CliCommand = {
  name: ["bundles", "render"],
  summary: "Render the system and user prompt of a runnable bundle for an input file",
  args: "<version>",
  options: [
    { name: "input", value: "<file>", description: "The prompt input, JSON (docs/prompt-bundles.md)" },
    { name: "profile", value: "<name>", description: "Budget profile: L1-standard (default) or L2-deep" },
    { name: "part", value: "<part>", description: "system, user, or both (default)" },
    ROOT_OPTION,
  ],
  async run(input) {
    if (input.positionals.length !== 1) throw new CliUsageError("bundles render needs exactly one <version>");
    if (typeof input.options.input !== "string")
      throw new CliUsageError("bundles render needs --input <file>");
    const part = input.options.part ?? "both";
    if (part !== "system" && part !== "user" && part !== "both")
      throw new CliUsageError("--part must be system, user or both");
    const bundle = (await catalog(input)).runnable(input.positionals[0]!);
    const profileName = typeof input.options.profile === "string" ? input.options.profile : "L1-standard";
    const profile = bundle.budgets.find((p) => p.name === profileName);
    if (!profile)
      throw new CliUsageError(`--profile must be one of ${bundle.budgets.map((p) => p.name).join(", ")}`);
    const { parsePromptInput } = await import("@keyward/core/prompts");
    const render = bundle.render(parsePromptInput(readInput(input.options.input)), profile);
    if (input.json) {
      input.io.out(
        JSON.stringify({
          ok: true,
          version: bundle.descriptor.promptVersion,
          profile: profile.name,
          ...render,
        }),
      );
      return EXIT_OK;
    }
    input.io.err(
      `${bundle.descriptor.promptVersion} ${profile.name}: system ${render.systemTokens}/${profile.systemTokens} tokens, user ${render.userTokens}/${profile.userTokens}` +
        (render.omitted.length ? `, cut: ${render.omitted.join(", ")}` : "") +
        (render.overBudget ? ", OVER BUDGET" : ""),
    );
    if (part === "system") input.io.out(render.system);
    else if (part === "user") input.io.out(render.user);
    else input.io.out(`${render.system}\n${render.user}`);
    return EXIT_OK;
  },
};

function readInput(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(resolve(file), "utf8");
  } catch {
    throw new CliFailure(`Cannot read the input file ${file}`, "NOT_FOUND");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new CliFailure(`The input file ${file} is not JSON`, "PROMPT_INPUT_INVALID");
  }
}

/** The `platform bundles …` commands: local ones, `evaluate`, which posts its run to a server, and `rehearse`, which a server runs. */
export const bundlesCommands: readonly CliCommand[] = [
  listCommand,
  verifyCommand,
  hashCommand,
  renderCommand,
  bundlesEvaluateCommand,
  bundlesRehearseCommand,
];
