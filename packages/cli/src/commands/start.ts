import { type CliCommand, CliUsageError, EXIT_OK } from "../command-line/cli-command.js";
import { parseHost, parsePort } from "../command-line/parse-options.js";
import { startCommand } from "../start-command.js";

/** Longest wait for in-flight requests on shutdown before open connections are dropped. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/** `--host`, shared by `start` and `serve`. */
export const HOST_OPTION = {
  name: "host",
  value: "<address>",
  description: "Interface to listen on (default 127.0.0.1; 0.0.0.0 for every interface)",
} as const;

/** `--shutdown-grace`, shared by `start` and `serve`. */
export const SHUTDOWN_GRACE_OPTION = {
  name: "shutdown-grace",
  value: "<seconds>",
  description: "How long in-flight requests may finish on shutdown (default 10)",
} as const;

/**
 * `platform start`: the demo server on the embedded in-memory default, or on MongoDB with
 * `--mongo-uri` (or `platform.mongo.uri`). Runs until SIGINT or
 * SIGTERM, then shuts down gracefully (stops accepting, lets in-flight requests finish within
 * `--shutdown-grace`, then drops the rest, stops the platform and its stores) and exits 0; a
 * second signal drops in-flight requests at once.
 */
export const startCliCommand: CliCommand = {
  name: ["start"],
  summary: "Start the demo server (in memory by default; --mongo-uri for MongoDB)",
  options: [
    {
      name: "port",
      value: "<n>",
      description: "Port to listen on (default: $PORT, else 8080); 0 picks a free port",
    },
    HOST_OPTION,
    {
      name: "config",
      value: "<file>",
      description: "Host configuration module (ESM .js/.mjs, or .ts/.mts through tsx)",
    },
    {
      name: "mongo-uri",
      value: "<uri>",
      description: "Keep the demo's data in MongoDB (default: $PLATFORM_MONGO_URI, else in memory)",
    },
    SHUTDOWN_GRACE_OPTION,
  ],
  async run({ options, positionals, io }) {
    if (positionals.length > 0) throw new CliUsageError(`Unexpected argument: ${positionals[0]}`);
    const port = parsePort(typeof options.port === "string" ? options.port : io.env.PORT);
    const config = typeof options.config === "string" ? options.config : undefined;
    const mongoUri = typeof options["mongo-uri"] === "string" ? options["mongo-uri"] : undefined;
    const host = parseHost(options.host);
    const graceMs = parseGrace(options["shutdown-grace"]);
    const stop = io.stopSignal();
    const running = await startCommand({ port, host, config, mongoUri }, (line) => io.out(line));
    const { signal, force } = await stop;
    io.err(`${signal}: shutting down (in-flight requests get ${graceMs / 1000} s)`);
    await running.close({ graceMs, force });
    io.err("stopped");
    return EXIT_OK;
  },
};

/** `--shutdown-grace` in milliseconds (default DEFAULT_SHUTDOWN_GRACE_MS). */
export function parseGrace(value: string | true | undefined): number {
  if (value === undefined) return DEFAULT_SHUTDOWN_GRACE_MS;
  if (typeof value !== "string" || !/^\d{1,4}(\.\d{1,3})?$/.test(value)) {
    throw new CliUsageError(`Invalid --shutdown-grace: ${String(value)} (seconds, e.g. 10)`);
  }
  return Math.round(Number(value) * 1000);
}
