import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { type CliCommand, CliFailure, CliUsageError, EXIT_OK } from "../command-line/cli-command.js";
import { adminClient } from "./admin-command-client.js";
import { EVIDENCE_PATH, recordedLine, recordOf } from "./evidence-posting.js";

/** The kinds a person records from a file; EVALUATION_RUN comes only from `platform bundles evaluate`. */
const FILE_KINDS = [
  "CHANGE_RECORD",
  "MODEL_COMPATIBILITY",
  "BUDGET_PROFILE",
  "TOKEN_COUNTING_POLICY",
  "CACHE_POLICY",
  "COMPACTION_POLICY",
];
const MAX_FILE_BYTES = 64 * 1024;
const HASH = /^[0-9a-f]{64}$/;

async function readContent(file: string): Promise<unknown> {
  const path = resolve(file);
  let text: string;
  try {
    if ((await stat(path)).size > MAX_FILE_BYTES)
      throw new CliFailure(`The evidence file ${file} is larger than 64 KiB`, "EVIDENCE_INVALID");
    text = await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof CliFailure) throw error;
    throw new CliFailure(`Cannot read the evidence file ${file}`, "NOT_FOUND");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new CliFailure(`The evidence file ${file} is not JSON`, "MALFORMED_JSON");
  }
}

/** The bundle hash of `version` in this build's catalog (the server checks it against its own). */
async function localHash(version: string): Promise<{ promptKey: string; bundleHash: string }> {
  const { loadBundleCatalog } = await import("@keyward/core/prompts");
  const entry = loadBundleCatalog().find(version);
  if (!entry) throw new CliFailure(`No manifest of version ${version} in this build`, "NOT_FOUND");
  return { promptKey: entry.manifest.descriptor.promptKey, bundleHash: entry.manifest.bundleHash };
}

/**
 * `platform releases evidence add --kind K --version V --file F`: records one piece of evidence of a
 * kind people write (docs/prompt-governance.md gives each kind's fields), bound to the version's
 * bundle hash, under the signed-in administrator. The server checks the schema and the hash.
 */
export const releasesEvidenceAddCommand: CliCommand = {
  name: ["releases", "evidence", "add"],
  summary: "Record evidence for a bundle's release gate from a JSON file (ADMIN)",
  options: [
    { name: "kind", value: "<kind>", description: FILE_KINDS.join(", ") },
    { name: "version", value: "<version>", description: "The bundle version the evidence is for" },
    { name: "file", value: "<json>", description: "The kind's content (at most 64 KiB)" },
    {
      name: "bundle-hash",
      value: "<hash>",
      description: "The bundle hash (default: this build's manifest's)",
    },
    { name: "url", value: "<server>", description: "The server (default: the last one you logged in to)" },
  ],
  async run(input) {
    if (input.positionals.length > 0) throw new CliUsageError(`Unexpected argument: ${input.positionals[0]}`);
    const { kind, version, file } = input.options;
    if (kind === "EVALUATION_RUN")
      throw new CliUsageError(
        "EVALUATION_RUN evidence comes from `platform bundles evaluate <version>` only",
      );
    if (typeof kind !== "string" || !FILE_KINDS.includes(kind))
      throw new CliUsageError(`--kind must be one of ${FILE_KINDS.join(", ")}`);
    if (typeof version !== "string" || version === "")
      throw new CliUsageError("--version <version> is required");
    if (typeof file !== "string" || file === "") throw new CliUsageError("--file <json> is required");
    const given = input.options["bundle-hash"];
    if (given !== undefined && (typeof given !== "string" || !HASH.test(given)))
      throw new CliUsageError("--bundle-hash takes a lower-case hex SHA-256");
    const content = await readContent(file);
    const local = await localHash(version);
    const body = {
      kind,
      promptKey: local.promptKey,
      promptVersion: version,
      bundleHash: given ?? local.bundleHash,
      content,
    };
    const client = adminClient(input);
    const record = recordOf((await client.call("POST", EVIDENCE_PATH, body)).body);
    input.io.out(
      input.json ? JSON.stringify({ ok: true, record }) : recordedLine(record, await client.serverUrl()),
    );
    return EXIT_OK;
  },
};
