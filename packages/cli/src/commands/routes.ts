import { Logger } from "@keyward/core/ports";
import { RouteTable } from "@keyward/core/web";
import { type CliCommand, CliUsageError, EXIT_OK } from "../command-line/cli-command.js";
import { buildDemoPlatform } from "../demo-platform.js";
import { routeListMarkdown, routeListText } from "../route-list.js";

/**
 * `platform routes`: every endpoint of the demo platform from its one route table (application
 * routes and every chain's routes), as text, JSON (`--json`) or the Markdown of docs/routes.md
 * (`--markdown`). Builds the demo in memory and stops it; nothing listens.
 */
export const routesCliCommand: CliCommand = {
  name: ["routes"],
  summary: "List every endpoint of the demo platform (its route table)",
  options: [{ name: "markdown", description: "Print the Markdown table of docs/routes.md" }],
  async run({ options, positionals, json, io }) {
    if (positionals.length > 0) throw new CliUsageError(`Unexpected argument: ${positionals[0]}`);
    // The demo's start-up notes (generated keys, loaded policies) are not part of the listing.
    const quiet: Logger = { info() {}, warn() {}, error: (message) => io.err(message) };
    const demo = await buildDemoPlatform({ register: (c) => c.registerInstance(Logger, quiet) }, io.env);
    try {
      const routes = demo.platform.resolve(RouteTable).list();
      if (json) {
        io.out(JSON.stringify(routes.map(({ handler: _handler, meta: _meta, ...route }) => route)));
      } else if (options.markdown === true) io.out(routeListMarkdown(routes).trimEnd());
      else io.out(routeListText(routes));
    } finally {
      await demo.platform.stop();
    }
    return EXIT_OK;
  },
};
