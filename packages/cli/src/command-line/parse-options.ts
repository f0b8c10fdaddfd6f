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
