import { type CliCommand, CliUsageError, EXIT_OK } from "../command-line/cli-command.js";
import { parseHost, parsePort } from "../command-line/parse-options.js";
import { serveCommand } from "../serve/serve-command.js";
import { HOST_OPTION, parseGrace, SHUTDOWN_GRACE_OPTION } from "./start.js";

/**
 * `platform serve --config <file>`: runs a host configuration for real: no demo users, policies or
 * routes; the store the configuration names; the first administrator from a one-time setup token
 * printed at the first start against an empty store (or `platform admin create`). Runs until SIGINT
 * or SIGTERM, then shuts down gracefully as `start` does.
 */
export const serveCliCommand: CliCommand = {
  name: ["serve"],
  summary: "Run a host configuration (no demo users; the store it names)",
  options: [
    { name: "config", value: "<file>", description: "Host configuration module (required)" },
    {
      name: "port",
      value: "<n>",
      description: "Port to listen on (default: $PORT, else 8080); 0 picks a free port",
    },
    HOST_OPTION,
    SHUTDOWN_GRACE_OPTION,
  ],
  async run({ options, positionals, io }) {
    if (positionals.length > 0) throw new CliUsageError(`Unexpected argument: ${positionals[0]}`);
    if (typeof options.config !== "string") {
      throw new CliUsageError(
        "serve needs --config <file>: it runs a host configuration (`platform start` runs the demo)",
      );
    }
    const port = parsePort(typeof options.port === "string" ? options.port : io.env.PORT);
    const host = parseHost(options.host);
    const graceMs = parseGrace(options["shutdown-grace"]);
    const stop = io.stopSignal();
    const running = await serveCommand(
      { config: options.config, port, host },
      (line) => io.out(line),
      io.env,
    );
    const { signal, force } = await stop;
    io.err(`${signal}: shutting down (in-flight requests get ${graceMs / 1000} s)`);
    await running.close({ graceMs, force });
    io.err("stopped");
    return EXIT_OK;
  },
};
