#!/usr/bin/env node
import "reflect-metadata";
import { nodeCliIo } from "./command-line/node-cli-io.js";
import { runCli } from "./command-line/run-cli.js";
import { terminalSafe } from "./command-line/terminal-text.js";
import { PLATFORM_COMMANDS } from "./commands/index.js";

// The process exits with the command's code once it is done, even if a library left a handle open
// (esbuild's service, a keep-alive agent): a supervisor must see the server go away.
runCli(process.argv.slice(2), PLATFORM_COMMANDS, nodeCliIo()).then(
  (code) => {
    process.exitCode = code;
    setTimeout(() => process.exit(code), 500).unref();
  },
  (error: unknown) => {
    process.stderr.write(`platform: ${terminalSafe(String((error as Error)?.message ?? error))}\n`);
    process.exit(1);
  },
);
