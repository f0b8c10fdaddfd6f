import {
  type CliCommand,
  CliFailure,
  CliUsageError,
  type CommandInput,
  EXIT_OK,
} from "../command-line/cli-command.js";
import { adminClient, optionQuery } from "./admin-command-client.js";

const URL_OPTION = {
  name: "url",
  value: "<server>",
  description: "The server (default: the last one you logged in to)",
};
const VERSION_OPTION = {
  name: "version",
  value: "<n>",
  description: "Act only if the resource is still at this version (else CONFLICT)",
};
const BASE = "/admin/api/resources";
const ID = /^[A-Za-z0-9_-]{1,128}$/;

/** What the CLI reads of a resource in the server's answer (checked before use). */
interface ResourceJson {
  id: string;
  resourceType: string;
  resourceIdentifier: string;
  httpMethod?: string;
  friendlyName: string;
  description: string;
  serviceOwner: string;
  status: string;
  version: number;
  permission?: { id: string; name: string };
  missingSince?: number;
  connectedPolicies?: PolicyLinkJson[];
  impact?: PolicyLinkJson[];
}

interface PolicyLinkJson {
  policyId: string;
  name: string;
  relation: string;
  approvalStatus: string;
  isActive: boolean;
  targetIdentifier: string;
  httpMethod: string;
}

function resourceOf(body: unknown): ResourceJson {
  const r = body as Partial<Record<keyof ResourceJson, unknown>> | null;
  const ok =
    typeof r?.id === "string" &&
    typeof r.resourceIdentifier === "string" &&
    typeof r.resourceType === "string" &&
    typeof r.status === "string" &&
    typeof r.friendlyName === "string" &&
    typeof r.version === "number";
  if (!ok) throw new CliFailure("The server's answer is not a resource", "SERVER_ANSWER_INVALID");
  return body as ResourceJson;
}

function pageOf(body: unknown): { items: ResourceJson[]; total: number } {
  const page = body as { items?: unknown; total?: unknown } | null;
  if (!Array.isArray(page?.items) || typeof page.total !== "number") {
    throw new CliFailure("The server's answer is not a resource list", "SERVER_ANSWER_INVALID");
  }
  return { items: page.items.map(resourceOf), total: page.total };
}

function idOf(input: CommandInput, what: string): string {
  if (input.positionals.length !== 1) throw new CliUsageError(`${what} needs exactly one <id>`);
  const id = input.positionals[0]!;
  if (!ID.test(id)) throw new CliUsageError(`${what}: <id> is the resource id \`resources list\` shows`);
  return id;
}

function versionOf(input: CommandInput): { version?: number } {
  const raw = input.options.version;
  if (typeof raw !== "string") return {};
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw new CliUsageError("--version takes a positive whole number");
  return { version: Number(raw) };
}

/** `GET /api/orders/{id}` or `OrderService.get(string)`: how a resource is named in one line. */
function label(r: ResourceJson): string {
  return r.resourceType === "URL" ? `${r.httpMethod ?? "ANY"} ${r.resourceIdentifier}` : r.resourceIdentifier;
}

function line(r: ResourceJson): string {
  const missing = r.missingSince === undefined ? "" : "  (no longer found)";
  return `${r.status.padEnd(18)} ${label(r).padEnd(40)} ${r.friendlyName}  [${r.id}]${missing}`;
}

function details(r: ResourceJson): string {
  const links = (title: string, list: PolicyLinkJson[] | undefined) =>
    list && list.length > 0
      ? [
          `${title}:`,
          ...list.map(
            (l) =>
              `  ${l.name} [${l.policyId}] ${l.relation} via ${l.httpMethod} ${l.targetIdentifier} (${l.approvalStatus}${l.isActive ? "" : ", inactive"})`,
          ),
        ]
      : [`${title}: none`];
  return [
    `${label(r)}  [${r.id}] version ${r.version}`,
    `  status:      ${r.status}`,
    `  name:        ${r.friendlyName}`,
    `  description: ${r.description}`,
    `  owner:       ${r.serviceOwner}`,
    `  permission:  ${r.permission ? `${r.permission.name} [${r.permission.id}]` : "-"}`,
    ...links("connected policies", r.connectedPolicies),
    ...links("impact", r.impact),
  ].join("\n");
}

function print(input: CommandInput, r: ResourceJson, verb: string): number {
  if (input.json) input.io.out(JSON.stringify({ ok: true, resource: r }));
  else input.io.out(verb === "" ? details(r) : `${verb} ${label(r)} [${r.id}]: ${r.status}`);
  return EXIT_OK;
}

/** `platform resources exclude|restore <id>`. */
function moveCommand(action: "exclude" | "restore", summary: string, verb: string): CliCommand {
  return {
    name: ["resources", action],
    summary,
    args: "<id>",
    options: [URL_OPTION, VERSION_OPTION],
    async run(input) {
      const id = idOf(input, `resources ${action}`);
      const answer = await adminClient(input).call("POST", `${BASE}/${id}/${action}`, versionOf(input));
      return print(input, resourceOf(answer.body), verb);
    },
  };
}

/** `platform resources list | show | define | exclude | restore`, through the admin API. */
export const resourcesCommands: readonly CliCommand[] = [
  {
    name: ["resources", "list"],
    summary: "List managed resources (ADMIN)",
    options: [
      URL_OPTION,
      {
        name: "status",
        value: "<status>",
        description: "NEEDS_DEFINITION, PERMISSION_CREATED, POLICY_CONNECTED or EXCLUDED",
      },
      { name: "type", value: "<type>", description: "URL or METHOD" },
      { name: "owner", value: "<name>", description: "Only this service owner" },
      {
        name: "query",
        value: "<text>",
        description: "Only those whose identifier, name or description contains this",
      },
      { name: "offset", value: "<n>", description: "Skip this many (default 0)" },
      { name: "limit", value: "<n>", description: "At most this many (0..200, default 50)" },
    ],
    async run(input) {
      if (input.positionals.length > 0)
        throw new CliUsageError(`Unexpected argument: ${input.positionals[0]}`);
      const query = optionQuery(input, {
        status: "status",
        type: "type",
        owner: "serviceOwner",
        query: "q",
        offset: "offset",
        limit: "limit",
      });
      const page = pageOf((await adminClient(input).call("GET", `${BASE}${query}`)).body);
      if (input.json) input.io.out(JSON.stringify({ ok: true, ...page }));
      else if (page.items.length === 0) input.io.out(`No resources (${page.total} match).`);
      else input.io.out([...page.items.map(line), `${page.items.length} of ${page.total}`].join("\n"));
      return EXIT_OK;
    },
  },
  {
    name: ["resources", "show"],
    summary: "Show a resource with its permission, connected policies and impact (ADMIN)",
    args: "<id>",
    options: [URL_OPTION],
    async run(input) {
      const id = idOf(input, "resources show");
      return print(input, resourceOf((await adminClient(input).call("GET", `${BASE}/${id}`)).body), "");
    },
  },
  {
    name: ["resources", "define"],
    summary: "Define a resource as a permission, with the proposed name unless --name (ADMIN)",
    args: "<id>",
    options: [
      URL_OPTION,
      VERSION_OPTION,
      { name: "name", value: "<text>", description: "The friendly name (and permission name) to use" },
      { name: "description", value: "<text>", description: "The description to use" },
    ],
    async run(input) {
      const id = idOf(input, "resources define");
      const body = {
        ...versionOf(input),
        ...(typeof input.options.name === "string" ? { friendlyName: input.options.name } : {}),
        ...(typeof input.options.description === "string" ? { description: input.options.description } : {}),
      };
      const answer = await adminClient(input).call("POST", `${BASE}/${id}/define`, body);
      return print(input, resourceOf(answer.body), "Defined");
    },
  },
  moveCommand("exclude", "Exclude a resource from authorization management (ADMIN)", "Excluded"),
  moveCommand("restore", "Restore an excluded resource to NEEDS_DEFINITION (ADMIN)", "Restored"),
];
