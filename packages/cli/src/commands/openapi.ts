import { buildOpenApiDocument } from "@keyward/adapters-http";
import { ErrorCatalog } from "@keyward/core/errors";
import { Logger } from "@keyward/core/ports";
import { RouteTable } from "@keyward/core/web";
import { type CliCommand, CliUsageError, EXIT_OK } from "../command-line/cli-command.js";
import { buildDemoPlatform } from "../demo-platform.js";
import { loadHostConfig } from "../host-config.js";

/**
 * `platform openapi`: prints the OpenAPI 3.1 document of the demo platform's route table (the one
 * `GET /openapi.json` serves), with a host configuration module's routes when `--config` names one.
 * Builds the platform in memory and stops it; nothing listens. Pretty-printed unless `--json`
 * (one line).
 */
export const openApiCliCommand: CliCommand = {
  name: ["openapi"],
  summary: "Print the OpenAPI 3.1 document of the platform's routes",
  options: [
    {
      name: "config",
      value: "<file>",
      description: "Host configuration module whose routes and plugins the document includes",
    },
  ],
  async run({ options, positionals, json, io }) {
    if (positionals.length > 0) throw new CliUsageError(`Unexpected argument: ${positionals[0]}`);
    if (options.config === true) throw new CliUsageError("--config needs a file");
    const host = typeof options.config === "string" ? await loadHostConfig(options.config) : {};
    // The demo's start-up notes (generated keys, loaded policies) are not part of the document.
    const quiet: Logger = { info() {}, warn() {}, error: (message) => io.err(message) };
    const hostRegister = host.register;
    const demo = await buildDemoPlatform(
      {
        ...host,
        register: (c, properties) => {
          c.registerInstance(Logger, quiet);
          hostRegister?.(c, properties);
        },
      },
      io.env,
    );
    try {
      const document = buildOpenApiDocument({
        routes: demo.platform.resolve(RouteTable).list(),
        catalog: demo.platform.resolve(ErrorCatalog),
      });
      io.out(json ? JSON.stringify(document) : JSON.stringify(document, null, 2));
    } finally {
      await demo.platform.stop();
    }
    return EXIT_OK;
  },
};
