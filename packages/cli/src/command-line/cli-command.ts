/** Exit codes of the `platform` command: 0 done, 1 failed, 2 usage. */
export const EXIT_OK = 0;
/** The command ran and failed (a server refused, a file could not be read, ...). */
export const EXIT_FAILED = 1;
/** The command line itself was wrong; the usage is printed. */
export const EXIT_USAGE = 2;

/** A wrong command line; printed with the command's usage, exit code 2. */
export class CliUsageError extends Error {
  override readonly name = "CliUsageError";
}

/**
 * A command that ran and failed for a reason the user can act on; printed as one line (with its
 * stable `code` when it has one), exit code 1. Never carries a stack to the terminal.
 */
export class CliFailure extends Error {
  override readonly name = "CliFailure";
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** How a command talks to the world; tests pass their own. */
export interface CliIo {
  /** One line (or block) for the result; with `--json` exactly one JSON document. */
  out(text: string): void;
  /** Progress, prompts and errors: never part of a `--json` result. */
  err(text: string): void;
  /**
   * Reads one line from the terminal (or piped standard input) after printing `prompt` on stderr;
   * `secret` turns echo off on a TTY. Resolves undefined at end of input.
   */
  readLine(prompt: string, options?: { secret?: boolean }): Promise<string | undefined>;
  /** The environment (PORT, PLATFORM_CREDENTIALS, ...). */
  env: Record<string, string | undefined>;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); a second signal resolves `force`. */
  stopSignal(): Promise<{ signal: string; force: Promise<string> }>;
}

/** One option a command accepts: `--name value`, `--name=value`, or a boolean `--name`. */
export interface OptionSpec {
  name: string;
  /** Placeholder for the value (`<n>`); absent for a boolean flag. */
  value?: string;
  description: string;
}

/** What a command receives: its positionals, its options, whether `--json` was asked. */
export interface CommandInput {
  positionals: readonly string[];
  options: Readonly<Record<string, string | true | undefined>>;
  json: boolean;
  io: CliIo;
}

/** One subcommand of the `platform` command (`start`, `login`, `users list`, ...). */
export interface CliCommand {
  /** The words that name it: `["users", "list"]`. */
  name: readonly string[];
  /** One line for the command list. */
  summary: string;
  /** Positional arguments, as shown in the usage (`<username>`). */
  args?: string;
  options: readonly OptionSpec[];
  /** Runs the command; resolves to the exit code. */
  run(input: CommandInput): Promise<number>;
}
