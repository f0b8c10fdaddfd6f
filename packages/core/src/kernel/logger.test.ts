import { afterEach, describe, expect, it, vi } from "vitest";
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

  describe("the default sink (stderr)", () => {
    afterEach(() => vi.restoreAllMocks());

    it("writes a turn's info lines in one write at the end of the turn, redacted as any line", async () => {
      const writes: string[] = [];
      vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
        writes.push(String(chunk));
        return true;
      });
      const log = new JsonLogger(undefined, () => 0);
      log.info("http.access", { path: "/a", status: 200 });
      log.info("http.access", { path: "/b", token: "s3cret" });
      expect(writes).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(writes).toHaveLength(1);
      const lines = writes[0]!.split("\n");
      expect(lines.at(-1)).toBe("");
      expect(lines.slice(0, -1).map((l) => JSON.parse(l).path)).toEqual(["/a", "/b"]);
      expect(writes[0]).not.toContain("s3cret");
    });

    it("writes at once when a turn's lines pass 64 KiB (the batch stays bounded)", () => {
      const writes: string[] = [];
      vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
        writes.push(String(chunk));
        return true;
      });
      new JsonLogger(undefined, () => 0).info("big", { text: "x".repeat(70_000) });
      expect(writes).toHaveLength(1);
    });

    it("writes a warn or error line at once, after the info lines before it", () => {
      const writes: string[] = [];
      vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
        writes.push(String(chunk));
        return true;
      });
      const log = new JsonLogger(undefined, () => 0);
      log.info("first");
      log.error("second", { password: "hunter2" });
      expect(writes).toHaveLength(1);
      const messages = writes[0]!
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l).message);
      expect(messages).toEqual(["first", "second"]);
      expect(writes[0]).not.toContain("hunter2");
    });
  });
});
