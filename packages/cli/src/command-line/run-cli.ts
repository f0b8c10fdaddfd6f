import {
  type CliCommand,
  type CliIo,
  CliUsageError,
  EXIT_FAILED,
  EXIT_OK,
  EXIT_USAGE,
} from "./cli-command.js";
import { GLOBAL_OPTIONS, parseOptions } from "./parse-options.js";
import { terminalSafeIo } from "./terminal-text.js";

/**
 * Runs the `platform` command line: finds the command named by the leading words (the longest
 * match), parses its options, runs it and returns the exit code. `--help` works on every level
 * (`platform --help`, `platform users --help`, `platform users add --help`). Usage errors print the
 * command's usage and give 2; failures (a CliFailure, a server's refusal, anything unexpected)
 * print one line with their code and message, never a stack, and give 1 (with `--json`, a JSON
 * error document on stdout too). Everything written passes through `terminalSafe`: whatever a
 * server or a file put in a message, no command can write a terminal control.
 */
export async function runCli(
  argv: readonly string[],
  commands: readonly CliCommand[],
  terminal: CliIo,
): Promise<number> {
  const io = terminalSafeIo(terminal);
  const args = argv[0] === "--" ? argv.slice(1) : [...argv];
  const command = findCommand(args, commands);
  const json = args.includes("--json");
  if (!command) {
    const words = args.filter((a) => !a.startsWith("-"));
    const group = words.length > 0 ? commands.filter((c) => c.name[0] === words[0]) : [];
    if (words.length === 0 || (group.length > 0 && words.length === 1)) {
      const wantsHelp = args.includes("--help") || args.includes("-h") || words[0] === "help";
      if (wantsHelp || words.length === 0) {
        io.out(overview(group.length > 0 ? group : commands));
        return words.length === 0 && !wantsHelp ? EXIT_USAGE : EXIT_OK;
      }
    }
    io.err(
      `Unknown command: ${words.join(" ") || args.join(" ")}\n\n${overview(group.length > 0 ? group : commands)}`,
    );
    return EXIT_USAGE;
  }
  const rest = args.slice(command.name.length);
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(rest, command.options);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    io.err(`${error.message}\n\n${usage(command)}`);
    return EXIT_USAGE;
  }
  if (parsed.options.help) {
    io.out(usage(command));
    return EXIT_OK;
  }
  try {
    return await command.run({ positionals: parsed.positionals, options: parsed.options, json, io });
  } catch (error) {
    if (error instanceof CliUsageError) {
      io.err(`${error.message}\n\n${usage(command)}`);
      return EXIT_USAGE;
    }
    const e = error as { code?: unknown; message?: unknown };
    const code = typeof e.code === "string" ? e.code : undefined;
    const message = typeof e.message === "string" ? e.message : String(error);
    if (json) io.out(JSON.stringify({ ok: false, error: { code: code ?? "FAILED", message } }));
    io.err(`platform: ${code ? `${code}: ` : ""}${message}`);
    return EXIT_FAILED;
  }
}

function findCommand(args: readonly string[], commands: readonly CliCommand[]): CliCommand | undefined {
  let best: CliCommand | undefined;
  for (const c of commands) {
    if (c.name.every((word, i) => args[i] === word) && (!best || c.name.length > best.name.length)) best = c;
  }
  return best;
}

/** The usage text of one command. */
export function usage(command: CliCommand): string {
  const lines = [
    `Usage: platform ${command.name.join(" ")}${command.args ? ` ${command.args}` : ""} [options]`,
    "",
    command.summary,
    "",
    "Options:",
  ];
  for (const o of [...command.options, ...GLOBAL_OPTIONS]) {
    const flag = `--${o.name}${o.value ? ` ${o.value}` : ""}`;
    lines.push(`  ${flag.padEnd(28)}${o.description}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The command list. */
export function overview(commands: readonly CliCommand[]): string {
  const lines = ["Usage: platform <command> [options]", "", "Commands:"];
  for (const c of commands) {
    const name = `${c.name.join(" ")}${c.args ? ` ${c.args}` : ""}`;
    lines.push(`  ${name.padEnd(34)}${c.summary}`);
  }
  lines.push(
    "",
    "Run `platform <command> --help` for a command's options. Exit codes: 0 done, 1 failed, 2 usage.",
  );
  return `${lines.join("\n")}\n`;
}
