import { type CliCommand, CliFailure, CliUsageError, EXIT_OK } from "../command-line/cli-command.js";
import { adminClient } from "./admin-command-client.js";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The simulator's answer, as far as the CLI prints it. */
interface SimulationJson {
  path: string;
  decision: { granted: boolean; reason: string; policyName?: string | null };
}

function listOption(value: string | true | undefined, name: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "")
    throw new CliUsageError(`--${name} takes a comma-separated list`);
  return value
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
}

/** `platform policies simulate`: what the loaded URL policies decide for a subject and a request. */
export const policiesSimulateCommand: CliCommand = {
  name: ["policies", "simulate"],
  summary: "What the loaded URL policies decide for a subject and a request (ADMIN)",
  options: [
    { name: "url", value: "<server>", description: "The server (default: the last one you logged in to)" },
    { name: "path", value: "<path>", description: "The request path, starting with /" },
    { name: "method", value: "<method>", description: "The request method (default GET)" },
    { name: "username", value: "<name>", description: "Simulate this user" },
    { name: "roles", value: "<a,b>", description: "Or a subject with these roles" },
    { name: "authorities", value: "<a,b>", description: "Or a subject with these authorities" },
    { name: "anonymous", description: "Or an anonymous request" },
    { name: "remote-address", value: "<ip>", description: "The caller's address (default 127.0.0.1)" },
    {
      name: "zero-trust-action",
      value: "<action>",
      description: "ALLOW, BLOCK, CHALLENGE, ESCALATE or PENDING_ANALYSIS",
    },
  ],
  async run(input) {
    if (input.positionals.length > 0) throw new CliUsageError(`Unexpected argument: ${input.positionals[0]}`);
    const o = input.options;
    if (typeof o.path !== "string" || !o.path.startsWith("/"))
      throw new CliUsageError("--path takes a path starting with /");
    const method = typeof o.method === "string" ? o.method.toUpperCase() : "GET";
    if (!METHODS.has(method)) throw new CliUsageError(`--method takes one of ${[...METHODS].join(", ")}`);
    const roles = listOption(o.roles, "roles");
    const authorities = listOption(o.authorities, "authorities");
    const subjects = [typeof o.username === "string", roles || authorities, o.anonymous === true].filter(
      Boolean,
    );
    if (subjects.length !== 1) {
      throw new CliUsageError("Give exactly one subject: --username, --roles/--authorities, or --anonymous");
    }
    const body = {
      method,
      path: o.path,
      ...(typeof o.username === "string" ? { username: o.username } : {}),
      ...(roles ? { roles } : {}),
      ...(authorities ? { authorities } : {}),
      ...(o.anonymous === true ? { anonymous: true } : {}),
      ...(typeof o["remote-address"] === "string" ? { remoteAddress: o["remote-address"] } : {}),
      ...(typeof o["zero-trust-action"] === "string" ? { zeroTrustAction: o["zero-trust-action"] } : {}),
    };
    const answer = (await adminClient(input).call("POST", "/admin/api/policies/simulate", body))
      .body as SimulationJson;
    if (typeof answer?.decision?.granted !== "boolean") {
      throw new CliFailure("The server's answer is not a simulation", "SERVER_ANSWER_INVALID");
    }
    if (input.json) input.io.out(JSON.stringify({ ok: true, ...answer }));
    else {
      const by = answer.decision.policyName ? ` by ${answer.decision.policyName}` : "";
      input.io.out(
        `${answer.decision.granted ? "GRANTED" : "DENIED"}${by}: ${method} ${answer.path} (${answer.decision.reason})`,
      );
    }
    return EXIT_OK;
  },
};
