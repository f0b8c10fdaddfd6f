#!/usr/bin/env node
import "reflect-metadata";
import { CliUsageError, USAGE, parseCliArgs } from "./cli-args.js";
import { startCommand } from "./start-command.js";

async function main(): Promise<void> {
  let args: ReturnType<typeof parseCliArgs>;
  try {
    args = parseCliArgs(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof CliUsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw error;
  }
  if (args.command === "help") {
    process.stdout.write(USAGE);
    return;
  }
  const running = await startCommand(args);
  const shutdown = async (): Promise<void> => {
    await running.close();
    process.exit(0);
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

main().catch((error: unknown) => {
  const e = error as { code?: string; message?: string };
  process.stderr.write(`platform: ${e.code ? `${e.code}: ` : ""}${e.message ?? String(error)}\n`);
  process.exit(1);
});
