/** Parsed command line of the `platform` command. */
export interface CliArgs {
  command: "start" | "help";
  port: number | undefined;
  config: string | undefined;
}

/** Usage text printed by `--help` and after an argument error. */
export const USAGE = `Usage: platform <command> [options]

Commands:
  start             Start the demo server on the embedded in-memory default

Options (start):
  --port <n>        Port to listen on (default: $PORT, else 8080); 0 picks a free port
  --config <file>   Host configuration module (ESM .js/.mjs, or .ts/.mts through tsx)
  -h, --help        Show this help
`;

/** An argument the CLI cannot accept; printed with the usage, exit code 2. */
export class CliUsageError extends Error {
  override readonly name = "CliUsageError";
}

/** Parses argv (without node and script); env supplies PORT. */
export function parseCliArgs(argv: readonly string[], env: Record<string, string | undefined>): CliArgs {
  const args = [...argv];
  if (args.length === 0 || args.includes("--help") || args.includes("-h") || args[0] === "help") {
    return { command: "help", port: undefined, config: undefined };
  }
  const command = args.shift();
  if (command !== "start") throw new CliUsageError(`Unknown command: ${command}`);
  let port: string | undefined = env.PORT;
  let config: string | undefined;
  while (args.length > 0) {
    const arg = args.shift()!;
    const [flag, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    const value = (): string => {
      const v = inline ?? args.shift();
      if (v === undefined || v === "") throw new CliUsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === "--port") port = value();
    else if (flag === "--config") config = value();
    else throw new CliUsageError(`Unknown option: ${arg}`);
  }
  return { command: "start", port: parsePort(port), config };
}

function parsePort(text: string | undefined): number | undefined {
  if (text === undefined || text === "") return undefined;
  if (!/^\d+$/.test(text) || Number(text) > 65535)
    throw new CliUsageError(`Invalid port: ${text} (0..65535)`);
  return Number(text);
}
