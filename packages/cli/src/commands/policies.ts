import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { type CliCommand, CliFailure, CliUsageError, EXIT_OK } from "../command-line/cli-command.js";
import { adminClient, optionQuery } from "./admin-command-client.js";
import { policiesSimulateCommand } from "./policies-simulate.js";

const URL_OPTION = {
  name: "url",
  value: "<server>",
  description: "The server (default: the last one you logged in to)",
};
const BASE = "/admin/api/policies";
const ID = /^[A-Za-z0-9_-]{1,128}$/;
/** The largest policy file `policies create` reads. */
const MAX_FILE_BYTES = 1024 * 1024;

/** What the CLI reads of a policy in the server's answer (checked before use). */
interface PolicyJson {
  id: string;
  name: string;
  effect: string;
  priority: number;
  source: string;
  approvalStatus: string;
  isActive: boolean;
  version: number;
  targets: { targetType: string; targetIdentifier: string; httpMethod: string }[];
}

/** What the CLI reads of a revision in the server's answer. */
interface RevisionJson {
  policyVersion: number;
  action: string;
  actor: string;
  at: number;
  changedFields: string[];
  reason?: string;
}

function policyOf(body: unknown): PolicyJson {
  const p = body as Partial<Record<keyof PolicyJson, unknown>> | null;
  const ok =
    typeof p?.id === "string" &&
    typeof p.name === "string" &&
    typeof p.approvalStatus === "string" &&
    typeof p.isActive === "boolean" &&
    typeof p.version === "number" &&
    Array.isArray(p.targets);
  if (!ok) throw new CliFailure("The server's answer is not a policy", "SERVER_ANSWER_INVALID");
  return body as PolicyJson;
}

function revisionOf(body: unknown): RevisionJson {
  const r = body as Partial<Record<keyof RevisionJson, unknown>> | null;
  const ok =
    typeof r?.policyVersion === "number" &&
    typeof r.action === "string" &&
    typeof r.actor === "string" &&
    typeof r.at === "number" &&
    Array.isArray(r.changedFields);
  if (!ok) throw new CliFailure("The server's answer is not a policy history", "SERVER_ANSWER_INVALID");
  return body as RevisionJson;
}

function line(p: PolicyJson): string {
  const targets = p.targets.map((t) =>
    t.targetType === "URL" ? `${t.httpMethod} ${t.targetIdentifier}` : t.targetIdentifier,
  );
  const state = `${p.approvalStatus}${p.isActive ? "" : ", inactive"}`;
  return `${p.effect.padEnd(5)} ${String(p.priority).padStart(6)}  ${p.name}  [${p.id}] ${state}  ${targets.join(", ")}`;
}

function revisionLine(r: RevisionJson): string {
  const fields = r.changedFields.length > 0 ? `  (${r.changedFields.join(", ")})` : "";
  const reason = r.reason ? `  reason: ${r.reason}` : "";
  const at = Number.isFinite(new Date(r.at).getTime()) ? new Date(r.at).toISOString() : "-";
  return `v${r.policyVersion} ${r.action.padEnd(11)} by ${r.actor} at ${at}${fields}${reason}`;
}

const listCommand: CliCommand = {
  name: ["policies", "list"],
  summary: "List policies in evaluation order (ADMIN)",
  options: [
    URL_OPTION,
    { name: "source", value: "<source>", description: "MANUAL, AI_GENERATED, AI_EVOLVED or IMPORTED" },
    { name: "status", value: "<status>", description: "NOT_REQUIRED, PENDING, APPROVED or REJECTED" },
    { name: "active", value: "<true|false>", description: "Only active (true) or inactive (false) ones" },
    { name: "type", value: "<type>", description: "Only those with a URL or METHOD target" },
    {
      name: "query",
      value: "<text>",
      description: "Only those whose name, description or target contains this",
    },
  ],
  async run(input) {
    if (input.positionals.length > 0) throw new CliUsageError(`Unexpected argument: ${input.positionals[0]}`);
    const query = optionQuery(input, {
      source: "source",
      status: "approvalStatus",
      active: "isActive",
      type: "targetType",
      query: "q",
    });
    const body = (await adminClient(input).call("GET", `${BASE}${query}`)).body;
    if (!Array.isArray(body))
      throw new CliFailure("The server's answer is not a policy list", "SERVER_ANSWER_INVALID");
    const policies = body.map(policyOf);
    if (input.json) input.io.out(JSON.stringify({ ok: true, policies }));
    else if (policies.length === 0) input.io.out("No policies.");
    else input.io.out([...policies.map(line), `${policies.length} policies`].join("\n"));
    return EXIT_OK;
  },
};

const createCommand: CliCommand = {
  name: ["policies", "create"],
  summary: "Create a MANUAL policy (NOT_REQUIRED: enforced at once) from a JSON file (ADMIN)",
  options: [
    URL_OPTION,
    { name: "file", value: "<json>", description: "The policy, as POST /admin/api/policies takes it" },
  ],
  async run(input) {
    if (input.positionals.length > 0) throw new CliUsageError(`Unexpected argument: ${input.positionals[0]}`);
    const file = input.options.file;
    if (typeof file !== "string" || file === "")
      throw new CliUsageError("policies create needs --file <json>");
    const policy = await readPolicyFile(file);
    if (policy.source !== undefined && policy.source !== "MANUAL") {
      throw new CliUsageError(
        `policies create makes MANUAL policies; the file says source ${String(policy.source)}`,
      );
    }
    const answer = await adminClient(input).call("POST", BASE, { ...policy, source: "MANUAL" });
    const created = policyOf(answer.body);
    if (input.json) input.io.out(JSON.stringify({ ok: true, policy: created }));
    else input.io.out(`Created ${created.name} [${created.id}]: ${created.approvalStatus}`);
    return EXIT_OK;
  },
};

async function readPolicyFile(file: string): Promise<Record<string, unknown>> {
  const path = resolve(file);
  let text: string;
  try {
    if ((await stat(path)).size > MAX_FILE_BYTES) {
      throw new CliFailure(`The policy file ${file} is larger than 1 MiB`, "VALIDATION_FAILED");
    }
    text = await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof CliFailure) throw error;
    throw new CliFailure(`Cannot read the policy file ${file}`, "NOT_FOUND");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliFailure(`The policy file ${file} is not JSON`, "MALFORMED_JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new CliFailure(`The policy file ${file} must hold one JSON object`, "VALIDATION_FAILED");
  }
  return parsed as Record<string, unknown>;
}

const historyCommand: CliCommand = {
  name: ["policies", "history"],
  summary: "Show a policy's changes, newest first (ADMIN)",
  args: "<id>",
  options: [
    URL_OPTION,
    { name: "limit", value: "<n>", description: "At most this many (1..1000, default 100)" },
  ],
  async run(input) {
    if (input.positionals.length !== 1) throw new CliUsageError("policies history needs exactly one <id>");
    const id = input.positionals[0]!;
    if (!ID.test(id))
      throw new CliUsageError("policies history: <id> is the policy id `policies list` shows");
    const limit = input.options.limit;
    if (limit !== undefined && (typeof limit !== "string" || !/^[1-9]\d{0,3}$/.test(limit))) {
      throw new CliUsageError("--limit takes a whole number from 1 to 1000");
    }
    const query = typeof limit === "string" ? `?limit=${limit}` : "";
    const body = (await adminClient(input).call("GET", `${BASE}/${id}/history${query}`)).body;
    if (!Array.isArray(body))
      throw new CliFailure("The server's answer is not a policy history", "SERVER_ANSWER_INVALID");
    const revisions = body.map(revisionOf);
    if (input.json) input.io.out(JSON.stringify({ ok: true, revisions }));
    else if (revisions.length === 0) input.io.out("No changes recorded.");
    else input.io.out(revisions.map(revisionLine).join("\n"));
    return EXIT_OK;
  },
};

/** `platform policies list | create --file | simulate | history`, through the admin API. */
export const policiesCommands: readonly CliCommand[] = [
  listCommand,
  createCommand,
  policiesSimulateCommand,
  historyCommand,
];
