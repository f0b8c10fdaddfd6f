import { describe, expect, it } from "vitest";
import { type CliCommand, CliFailure, CliUsageError } from "./cli-command.js";
import { memoryCliIo } from "./memory-cli-io.js";
import { parseOptions, parsePort } from "./parse-options.js";
import { runCli } from "./run-cli.js";

const seen: unknown[] = [];
const commands: CliCommand[] = [
  {
    name: ["start"],
    summary: "Start it",
    options: [{ name: "port", value: "<n>", description: "Port" }],
    async run(input) {
      seen.push({ positionals: input.positionals, options: input.options, json: input.json });
      return 0;
    },
  },
  {
    name: ["users", "list"],
    summary: "List users",
    options: [],
    async run({ json, io }) {
      io.out(json ? JSON.stringify({ ok: true, users: [] }) : "no users");
      return 0;
    },
  },
  {
    name: ["users", "add"],
    summary: "Add a user",
    args: "<username>",
    options: [{ name: "admin", description: "Grant ROLE_ADMIN" }],
    async run({ positionals }) {
      if (positionals.length !== 1) throw new CliUsageError("users add needs one <username>");
      throw new CliFailure("Username is taken", "CONFLICT");
    },
  },
];

describe("parseOptions", () => {
  const specs = [
    { name: "port", value: "<n>", description: "" },
    { name: "admin", description: "" },
  ];

  it.each([
    [["--port", "7000"], { port: "7000" }],
    [["--port=0"], { port: "0" }],
    [["--", "--port", "9000"], { port: "9000" }],
    [["--admin"], { admin: true }],
    [["-h"], { help: true }],
    [["--json"], { json: true }],
  ])("%j", (args, options) => {
    expect(parseOptions(args, specs).options).toEqual(options);
  });

  it.each([
    [["--port"], "--port needs a value"],
    [["--port="], "--port needs a value"],
    [["--port", "--admin"], "--port needs a value"],
    [["--verbose"], "Unknown option: --verbose"],
    [["-x"], "Unknown option: -x"],
    [["--admin=yes"], "--admin takes no value"],
    [["--port", "1", "--port", "2"], "--port is given more than once"],
  ])("%j is a usage error: %s", (args, message) => {
    expect(() => parseOptions(args, specs)).toThrow(message);
  });

  it("keeps positionals in order", () => {
    expect(parseOptions(["alice", "--admin", "bob"], specs).positionals).toEqual(["alice", "bob"]);
  });

  it.each([["-1"], ["http"], ["70000"], ["123456"]])("refuses port %s", (p) => {
    expect(() => parsePort(p)).toThrow(`Invalid port: ${p}`);
  });
});

describe("runCli", () => {
  it("drops the `--` pnpm 10 passes through (pnpm start -- --port 9000)", async () => {
    seen.length = 0;
    const io = memoryCliIo();
    expect(await runCli(["start", "--", "--port", "9000"], commands, io)).toBe(0);
    expect(await runCli(["--", "start", "--port", "9001"], commands, io)).toBe(0);
    expect(seen).toEqual([
      { positionals: [], options: { port: "9000" }, json: false },
      { positionals: [], options: { port: "9001" }, json: false },
    ]);
  });

  it("prints the overview for no command (exit 2) and for --help (exit 0)", async () => {
    const none = memoryCliIo();
    expect(await runCli([], commands, none)).toBe(2);
    expect(none.stdout.join("")).toContain("users add <username>");
    const help = memoryCliIo();
    expect(await runCli(["--help"], commands, help)).toBe(0);
    expect(help.stdout.join("")).toContain("Exit codes: 0 done, 1 failed, 2 usage");
  });

  it("has --help on each command and on a group", async () => {
    const io = memoryCliIo();
    expect(await runCli(["users", "add", "--help"], commands, io)).toBe(0);
    expect(io.stdout.join("")).toContain("Usage: platform users add <username> [options]");
    expect(io.stdout.join("")).toContain("--admin");
    const group = memoryCliIo();
    expect(await runCli(["users", "--help"], commands, group)).toBe(0);
    expect(group.stdout.join("")).toContain("users list");
    expect(group.stdout.join("")).not.toContain("start");
  });

  it("answers an unknown command and a bad option with the usage and exit 2", async () => {
    const io = memoryCliIo();
    expect(await runCli(["stop"], commands, io)).toBe(2);
    expect(io.stderr.join("")).toContain("Unknown command: stop");
    const bad = memoryCliIo();
    expect(await runCli(["start", "--bogus"], commands, bad)).toBe(2);
    expect(bad.stderr.join("")).toContain("Unknown option: --bogus");
    expect(bad.stderr.join("")).toContain("Usage: platform start");
    const usage = memoryCliIo();
    expect(await runCli(["users", "add"], commands, usage)).toBe(2);
  });

  it("prints a failure as one line with its code (exit 1), and as JSON with --json", async () => {
    const io = memoryCliIo();
    expect(await runCli(["users", "add", "alice"], commands, io)).toBe(1);
    expect(io.stderr).toEqual(["platform: CONFLICT: Username is taken"]);
    const json = memoryCliIo();
    expect(await runCli(["users", "add", "alice", "--json"], commands, json)).toBe(1);
    expect(JSON.parse(json.stdout[0]!)).toEqual({
      ok: false,
      error: { code: "CONFLICT", message: "Username is taken" },
    });
  });

  it("passes --json to the command", async () => {
    const io = memoryCliIo();
    expect(await runCli(["users", "list", "--json"], commands, io)).toBe(0);
    expect(JSON.parse(io.stdout[0]!)).toEqual({ ok: true, users: [] });
  });
});
