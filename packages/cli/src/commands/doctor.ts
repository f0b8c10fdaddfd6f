import { type CliCommand, CliUsageError, EXIT_FAILED, EXIT_OK } from "../command-line/cli-command.js";
import { findingLine } from "../doctor/doctor-finding.js";
import { runDoctor } from "../doctor/run-doctor.js";
import { loadHostConfig } from "../host-config.js";

/**
 * `platform doctor [--config <file>] [--mongo-uri <uri>] [--production]`: checks a configuration and
 * says what to fix, one line per finding with a stable code and severity. Exit 0 when no finding is an
 * error, 1 otherwise. Production (`--production`, or NODE_ENV=production) turns what development may
 * tolerate (keys generated at start, no public URL, an in-memory store, demo users) into errors.
 */
export const doctorCommand: CliCommand = {
  name: ["doctor"],
  summary:
    "Check a configuration (keys, public URL, proxies, store, indexes, property names) and say what to fix",
  options: [
    { name: "config", value: "<file>", description: "Host configuration module, as for start" },
    {
      name: "mongo-uri",
      value: "<uri>",
      description: "The store (default: platform.mongo.uri, $PLATFORM_MONGO_URI)",
    },
    { name: "production", description: "Judge as production (default when NODE_ENV=production)" },
  ],
  async run({ positionals, options, io, json }) {
    if (positionals.length > 0) throw new CliUsageError(`Unexpected argument: ${positionals[0]}`);
    const config = typeof options.config === "string" ? options.config : undefined;
    const mongoUri = typeof options["mongo-uri"] === "string" ? options["mongo-uri"] : undefined;
    const production = options.production === true || io.env.NODE_ENV === "production";
    const host = config ? await loadHostConfig(config) : {};
    const findings = await runDoctor({ host, mongoUri, env: io.env, production });
    const errors = findings.filter((f) => f.severity === "error").length;
    const warnings = findings.filter((f) => f.severity === "warning").length;
    if (json) io.out(JSON.stringify({ ok: errors === 0, production, findings }));
    else {
      for (const f of findings) io.out(`${findingLine(f)}\n`);
      io.out(`${errors} error(s), ${warnings} warning(s)${production ? " (judged as production)" : ""}\n`);
    }
    return errors === 0 ? EXIT_OK : EXIT_FAILED;
  },
};
