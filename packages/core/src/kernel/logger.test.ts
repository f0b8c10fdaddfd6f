import { describe, expect, it } from "vitest";
import { JsonLogger } from "./logger.js";

describe("JsonLogger", () => {
  it("writes one JSON line per entry and redacts secret-looking fields", () => {
    const lines: string[] = [];
    const log = new JsonLogger(
      (l) => lines.push(l),
      () => 0,
    );
    log.error("login failed", {
      username: "alice",
      password: "hunter2",
      accessToken: "abc",
      correlationId: "c1",
    });
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({
      level: "error",
      message: "login failed",
      username: "alice",
      correlationId: "c1",
    });
    expect(lines[0]).not.toContain("hunter2");
    expect(lines[0]).not.toContain("abc");
  });

  it("survives fields that cannot be serialised", () => {
    const lines: string[] = [];
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    new JsonLogger((l) => lines.push(l)).warn("odd", { cyclic });
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: "warn", message: "odd" });
  });
});
