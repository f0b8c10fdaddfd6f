import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from "../command-line/cli-command.js";
import { memoryCliIo } from "../command-line/memory-cli-io.js";
import { runCli } from "../command-line/run-cli.js";
import { PLATFORM_COMMANDS } from "./index.js";

const HOST_CONFIG = fileURLToPath(new URL("../fixtures/host-config.mjs", import.meta.url));
/** The demo's users hashed at a test cost (read from the environment, as `platform` reads it). */
const LOW_COST_ENV = {
  PLATFORM_AUTH_PASSWORD_SCRYPT_COST_LOG2: "10",
  PLATFORM_AUTH_PASSWORD_SCRYPT_ALLOW_LOW_COST: "true",
};

describe("platform openapi", () => {
  it("prints the document of the demo's routes and a host configuration's (--config), one line with --json", async () => {
    const io = memoryCliIo([], LOW_COST_ENV);
    expect(await runCli(["openapi", "--config", HOST_CONFIG, "--json"], PLATFORM_COMMANDS, io)).toBe(EXIT_OK);
    expect(io.stdout).toHaveLength(1);
    expect(io.stdout[0]).not.toContain("\n");
    const doc = JSON.parse(io.stdout[0]!) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths["/hello"]!)).toEqual(["get"]);
    expect(Object.keys(doc.paths["/api/echo"]!)).toEqual(["post"]);
    expect(doc.paths["/api/orders/{id}"]?.delete).toMatchObject({ operationId: "orders.cancel" });
    expect(doc.paths["/openapi.json"]).toBeDefined();
  }, 30_000);

  it("explains itself with --help and refuses stray arguments (exit 2)", async () => {
    const help = memoryCliIo();
    expect(await runCli(["openapi", "--help"], PLATFORM_COMMANDS, help)).toBe(EXIT_OK);
    expect(help.stdout.join("\n")).toContain("--config <file>");
    const stray = memoryCliIo();
    expect(await runCli(["openapi", "extra"], PLATFORM_COMMANDS, stray)).toBe(EXIT_USAGE);
    expect(stray.stderr.join("\n")).toContain("Unexpected argument: extra");
  });

  it("fails with one line (exit 1) when the configuration module cannot be loaded", async () => {
    const io = memoryCliIo([], LOW_COST_ENV);
    expect(await runCli(["openapi", "--config", "/nonexistent/host.mjs"], PLATFORM_COMMANDS, io)).toBe(
      EXIT_FAILED,
    );
    expect(io.stdout).toEqual([]);
    expect(io.stderr.join("\n")).not.toMatch(/\n\s+at /);
  });
});
