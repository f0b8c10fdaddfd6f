import {
  type CliCommand,
  type CommandInput,
  CliUsageError,
  EXIT_FAILED,
  EXIT_OK,
} from "../command-line/cli-command.js";
import { adminClient, optionQuery } from "./admin-command-client.js";
import {
  executionLines,
  executionOf,
  headLines,
  headsOf,
  historyLine,
  historyOf,
  receiptLines,
  receiptOf,
} from "./releases-output.js";

const URL_OPTION = {
  name: "url",
  value: "<server>",
  description: "The server (default: the last one you logged in to)",
};
const SCOPE_OPTION = {
  name: "scope",
  value: "<scope>",
  description: "Registry scope (default PLATFORM_GLOBAL)",
};
const KEY_OPTION = {
  name: "key",
  value: "<promptKey>",
  description: "Bundle family key (cortex.security-decision)",
};
const API = "/platform/admin/api/prompt-quality/releases";
const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const EXECUTION_KEY = /^RBX-[A-Za-z0-9_-]{1,64}$/;

/** The option's text, required unless `optional`; a name option must look like a registry name. */
function option(
  input: CommandInput,
  name: string,
  kind: "name" | "text",
  optional = false,
): string | undefined {
  const value = input.options[name];
  if (value === undefined && optional) return undefined;
  if (typeof value !== "string" || value.trim() === "") throw new CliUsageError(`--${name} needs a value`);
  if (kind === "name" && !NAME.test(value))
    throw new CliUsageError(`--${name} takes letters, digits, '.', '_', ':' or '-' (at most 128)`);
  return value;
}

/** A comma-separated list option (`--canary-tenants a,b`), trimmed, blanks dropped; the server checks each. */
function listOption(input: CommandInput, name: string): string[] | undefined {
  const value = input.options[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "")
    throw new CliUsageError(`--${name} takes a comma-separated list`);
  return value
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
}

/** `--canary-percent`: a whole number from 0 to 100. */
function percentOption(input: CommandInput): number | undefined {
  const value = input.options["canary-percent"];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !/^\d{1,3}$/.test(value.trim()) || Number(value) > 100)
    throw new CliUsageError("--canary-percent takes a whole number from 0 to 100");
  return Number(value);
}

/** The canary fields of a transition body, from the flags (only those given). */
function canaryBody(input: CommandInput): Record<string, unknown> {
  const percent = percentOption(input);
  const tenants = listOption(input, "canary-tenants");
  const families = listOption(input, "canary-families");
  return {
    ...(percent === undefined ? {} : { canaryPercent: percent }),
    ...(tenants === undefined ? {} : { canaryTenants: tenants }),
    ...(families === undefined ? {} : { canaryResourceFamilies: families }),
  };
}

function noPositionals(input: CommandInput): void {
  if (input.positionals.length > 0) throw new CliUsageError(`Unexpected argument: ${input.positionals[0]}`);
}

const listCommand: CliCommand = {
  name: ["releases", "list"],
  summary: "List the registry's releases and open emergency stops (ADMIN)",
  options: [URL_OPTION, SCOPE_OPTION],
  async run(input) {
    noPositionals(input);
    option(input, "scope", "name", true);
    const query = optionQuery(input, { scope: "registryScope" });
    const heads = headsOf((await adminClient(input).call("GET", `${API}${query}`)).body);
    if (input.json) input.io.out(JSON.stringify({ ok: true, scopes: heads }));
    else if (heads.length === 0) input.io.out("No releases.");
    else input.io.out(heads.flatMap(headLines).join("\n"));
    return EXIT_OK;
  },
};

const historyCommand: CliCommand = {
  name: ["releases", "history"],
  summary: "Show the registry history, newest first (ADMIN)",
  options: [
    URL_OPTION,
    SCOPE_OPTION,
    { name: "version", value: "<promptVersion>", description: "Only this version's entries" },
    { name: "limit", value: "<n>", description: "At most this many (1..1000, default 100)" },
  ],
  async run(input) {
    noPositionals(input);
    option(input, "scope", "name", true);
    option(input, "version", "name", true);
    const limit = input.options.limit;
    if (
      limit !== undefined &&
      (typeof limit !== "string" || !/^[1-9]\d{0,3}$/.test(limit) || Number(limit) > 1000)
    )
      throw new CliUsageError("--limit takes a whole number from 1 to 1000");
    const query = optionQuery(input, { scope: "registryScope", version: "promptVersion", limit: "limit" });
    const entries = historyOf((await adminClient(input).call("GET", `${API}/history${query}`)).body);
    if (input.json) input.io.out(JSON.stringify({ ok: true, entries }));
    else if (entries.length === 0) input.io.out("Nothing recorded.");
    else input.io.out(entries.map(historyLine).join("\n"));
    return EXIT_OK;
  },
};

const transitionCommand: CliCommand = {
  name: ["releases", "transition"],
  summary:
    "Move a release to another state through the release gate; exit 1 with the blockers when blocked (ADMIN)",
  args: "<version>",
  options: [
    URL_OPTION,
    SCOPE_OPTION,
    KEY_OPTION,
    {
      name: "to",
      value: "<state>",
      description: "Target state (AVAILABLE, SHADOW, CANARY, ACTIVE, DEPRECATED, RETIRED, or an older name)",
    },
    { name: "rationale", value: "<text>", description: "Why (recorded with the change)" },
    {
      name: "canary-percent",
      value: "<n>",
      description: "To CANARY: the share of requesters, 0..100 (absent: the whole scope)",
    },
    { name: "canary-tenants", value: "<a,b>", description: "To CANARY: only these tenants" },
    {
      name: "canary-families",
      value: "</api/orders,…>",
      description: "To CANARY: only these resource families (canonical paths or resource IDs)",
    },
    { name: "dry-run", description: "List the blockers without recording anything" },
  ],
  async run(input) {
    if (input.positionals.length !== 1)
      throw new CliUsageError("releases transition needs exactly one <version>");
    const version = input.positionals[0]!;
    if (!NAME.test(version)) throw new CliUsageError("<version> is a promptVersion `releases list` shows");
    const body = {
      ...(input.options.scope === undefined ? {} : { registryScope: option(input, "scope", "name") }),
      promptKey: option(input, "key", "name"),
      promptVersion: version,
      targetReleaseStatus: option(input, "to", "name"),
      rationale: option(input, "rationale", "text"),
      ...canaryBody(input),
    };
    const path = `${API}/transition${input.options["dry-run"] === true ? "?dryRun=true" : ""}`;
    const answer = await adminClient(input).call("POST", path, body, { alsoResolve: [422] });
    const receipt = receiptOf(answer.body);
    const applied = receipt.outcome === "APPLIED";
    if (input.json) input.io.out(JSON.stringify({ ok: applied, receipt }));
    else input.io.out(receiptLines(receipt).join("\n"));
    return applied ? EXIT_OK : EXIT_FAILED;
  },
};

const rollbackCommand: CliCommand = {
  name: ["releases", "rollback"],
  summary: "Roll a scope back from its executing version to a declared target; exit 1 when refused (ADMIN)",
  options: [
    URL_OPTION,
    SCOPE_OPTION,
    KEY_OPTION,
    { name: "from", value: "<promptVersion>", description: "The executing version" },
    { name: "to", value: "<promptVersion>", description: "The rollback target" },
    { name: "reason", value: "<text>", description: "Why (recorded with the execution)" },
    {
      name: "emergency",
      description: "An emergency stop: acts at once, then another administrator approves",
    },
  ],
  async run(input) {
    noPositionals(input);
    const body = {
      ...(input.options.scope === undefined ? {} : { registryScope: option(input, "scope", "name") }),
      promptKey: option(input, "key", "name"),
      fromVersion: option(input, "from", "name"),
      toVersion: option(input, "to", "name"),
      reason: option(input, "reason", "text"),
      emergency: input.options.emergency === true,
    };
    const answer = await adminClient(input).call("POST", `${API}/rollback`, body, { alsoResolve: [422] });
    const execution = executionOf(answer.body);
    const done = answer.status !== 422;
    if (input.json) input.io.out(JSON.stringify({ ok: done, execution }));
    else input.io.out(executionLines(execution).join("\n"));
    return done ? EXIT_OK : EXIT_FAILED;
  },
};

const approveCommand: CliCommand = {
  name: ["releases", "approve"],
  summary: "Ratify (or with --revert undo) another administrator's emergency stop (ADMIN)",
  args: "<executionKey>",
  options: [
    URL_OPTION,
    { name: "revert", description: "Revert the stop: the source version executes again" },
    { name: "rationale", value: "<text>", description: "Why (recorded with the approval)" },
  ],
  async run(input) {
    if (input.positionals.length !== 1)
      throw new CliUsageError("releases approve needs exactly one <executionKey>");
    const key = input.positionals[0]!;
    if (!EXECUTION_KEY.test(key))
      throw new CliUsageError("<executionKey> is the RBX-… key the rollback answered");
    const rationale = option(input, "rationale", "text", true);
    const body = {
      action: input.options.revert === true ? "REVERT" : "RATIFY",
      ...(rationale ? { rationale } : {}),
    };
    const answer = await adminClient(input).call("POST", `${API}/rollback/${key}/approve`, body);
    const execution = executionOf(answer.body);
    if (input.json) input.io.out(JSON.stringify({ ok: true, execution }));
    else input.io.out(executionLines(execution).join("\n"));
    return EXIT_OK;
  },
};

/** `platform releases list | history | transition [--dry-run] | rollback [--emergency] | approve`, through the admin API. */
export const releasesCommands: readonly CliCommand[] = [
  listCommand,
  historyCommand,
  transitionCommand,
  rollbackCommand,
  approveCommand,
];
