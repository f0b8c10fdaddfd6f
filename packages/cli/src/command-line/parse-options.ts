import { isIP } from "node:net";
import { CliUsageError, type OptionSpec } from "./cli-command.js";

/** Options every command accepts. */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { name: "json", description: "Print the result as one JSON document (for scripts)" },
  { name: "help", description: "Show this help" },
];

/** A parsed command line of one command. */
export interface ParsedOptions {
  positionals: string[];
  options: Record<string, string | true>;
}

/**
 * Parses the arguments after the command words against the command's option specs. Accepts
 * `--name value`, `--name=value`, boolean `--name`, `-h`, and drops a bare `--` (pnpm 10 passes the
 * `--` of `pnpm start -- --port 9000` through to the program). Unknown options, missing values and
 * repeated options are usage errors.
 */
export function parseOptions(args: readonly string[], specs: readonly OptionSpec[]): ParsedOptions {
  const all = [...specs, ...GLOBAL_OPTIONS];
  const rest = args.filter((a) => a !== "--");
  const positionals: string[] = [];
  const options: Record<string, string | true> = {};
  while (rest.length > 0) {
    const arg = rest.shift()!;
    if (arg === "-h") {
      options.help = true;
      continue;
    }
    if (!arg.startsWith("--")) {
      if (arg.startsWith("-") && arg.length > 1) throw new CliUsageError(`Unknown option: ${arg}`);
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const spec = all.find((s) => s.name === name);
    if (!spec) throw new CliUsageError(`Unknown option: ${arg}`);
    if (name in options) throw new CliUsageError(`--${name} is given more than once`);
    if (spec.value === undefined) {
      if (eq !== -1) throw new CliUsageError(`--${name} takes no value`);
      options[name] = true;
      continue;
    }
    const value = eq !== -1 ? arg.slice(eq + 1) : rest.shift();
    if (value === undefined || value === "" || (eq === -1 && value.startsWith("--"))) {
      throw new CliUsageError(`--${name} needs a value`);
    }
    options[name] = value;
  }
  return { positionals, options };
}

/** A port number 0..65535 from an option or PORT; undefined when absent. */
export function parsePort(text: string | undefined): number | undefined {
  if (text === undefined || text === "") return undefined;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) {
    throw new CliUsageError(`Invalid port: ${text} (0..65535)`);
  }
  return Number(text);
}

/** One DNS label: letters, digits and inner hyphens, 1 to 63 characters. */
const LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/**
 * The interface to bind from `--host`: an IPv4 or IPv6 address (`0.0.0.0` and `::` bind every
 * interface) or a host name of DNS labels (at most 253 characters); undefined when absent.
 */
export function parseHost(text: string | true | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (typeof text === "string" && (isIP(text) !== 0 || validHostName(text))) return text;
  throw new CliUsageError(
    `Invalid --host: ${typeof text === "string" ? JSON.stringify(text.slice(0, 100)) : "(no value)"} (an IP address such as 127.0.0.1 or 0.0.0.0, or a host name)`,
  );
}

function validHostName(text: string): boolean {
  return text.length <= 253 && text.split(".").every((label) => LABEL.test(label));
}
