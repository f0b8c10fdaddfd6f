import { describe, expect, it } from "vitest";
import { CliUsageError, parseCliArgs } from "./cli-args.js";

describe("parseCliArgs", () => {
  it.each([
    [[], {}, { command: "help" }],
    [["--help"], {}, { command: "help" }],
    [["start", "-h"], {}, { command: "help" }],
    [["start"], {}, { command: "start", port: undefined, config: undefined }],
    [["start"], { PORT: "9090" }, { command: "start", port: 9090 }],
    [["start", "--port", "7000"], { PORT: "9090" }, { command: "start", port: 7000 }],
    [["start", "--port=0"], {}, { command: "start", port: 0 }],
    [["start", "--config", "host.ts"], {}, { command: "start", config: "host.ts" }],
  ] as const)("%j with env %j", (argv, env, expected) => {
    expect(parseCliArgs(argv, env)).toMatchObject(expected);
  });

  it.each([
    [["stop"], "Unknown command: stop"],
    [["start", "--port"], "--port needs a value"],
    [["start", "--port", "http"], "Invalid port: http"],
    [["start", "--port", "70000"], "Invalid port: 70000"],
    [["start", "--verbose"], "Unknown option: --verbose"],
    [["start", "--config="], "--config needs a value"],
  ])("%j is a usage error: %s", (argv, message) => {
    expect(() => parseCliArgs(argv, {})).toThrow(CliUsageError);
    expect(() => parseCliArgs(argv, {})).toThrow(message);
  });

  it("refuses a bad PORT from the environment", () => {
    expect(() => parseCliArgs(["start"], { PORT: "-1" })).toThrow("Invalid port: -1");
  });
});
