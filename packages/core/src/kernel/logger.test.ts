import { afterEach, describe, expect, it, vi } from "vitest";
import { JsonLogger, redact } from "./logger.js";

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

describe("JsonLogger's lines, written field by field", () => {
  /**
   * What a line was before it was written field by field: the object, redacted, through
   * JSON.stringify; the line without fields when that throws.
   */
  function reference(at: number, level: string, message: string, fields: Record<string, unknown>): string {
    const time = new Date(at).toISOString();
    const out: Record<string, unknown> = { time, level, message };
    for (const k of Object.keys(fields)) out[k] = redact({ [k]: fields[k] })[k];
    try {
      return JSON.stringify(out);
    } catch {
      return JSON.stringify({ time, level, message });
    }
  }

  const values: unknown[] = [
    "plain",
    "",
    'a "quoted" \\ text',
    "tab\there\nnew line\u0000\u001f",
    "é ü 日本 😀",
    "lone \ud800 surrogate",
    "\u2028\u2029\u007f",
    0,
    -0,
    0.34,
    1e21,
    -1.5e-7,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    true,
    false,
    null,
    undefined,
    () => 1,
    Symbol("s"),
    { nested: ["x", 1, null] },
    [1, "two"],
    new Date(0),
    new String("boxed"),
  ];
  const names = [
    "method",
    "path",
    "status",
    "user id",
    'we"ird',
    "é",
    "token",
    "passwordHash",
    "1",
    "2a",
    "time",
    "message",
    "level",
    "__proto__",
    "toJSON",
    "a\nb",
  ];

  it("is byte for byte the object's JSON, whatever the fields hold", () => {
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor(seed / 65536) % n;
    };
    for (let round = 0; round < 400; round++) {
      const fields: Record<string, unknown> = {};
      const count = next(6);
      for (let i = 0; i < count; i++) {
        const name = names[next(names.length)]!;
        Object.defineProperty(fields, name, {
          value: values[next(values.length)],
          enumerable: true,
          configurable: true,
          writable: true,
        });
      }
      const message = String(values[next(7)]);
      const lines: string[] = [];
      const at = next(3) * 1000;
      new JsonLogger(
        (l) => lines.push(l),
        () => at,
      ).info(message, fields);
      expect(lines[0]).toBe(reference(at, "info", message, fields));
    }
  });

  it("reuses the time's text only within one millisecond", () => {
    const lines: string[] = [];
    let at = 0;
    const log = new JsonLogger(
      (l) => lines.push(l),
      () => at,
    );
    log.info("a");
    at = 1;
    log.info("b");
    log.info("c");
    expect(lines.map((l) => JSON.parse(l).time)).toEqual([
      "1970-01-01T00:00:00.000Z",
      "1970-01-01T00:00:00.001Z",
      "1970-01-01T00:00:00.001Z",
    ]);
  });

  it("redacts a secret-looking field whatever its value, and falls back as before on a bigint", () => {
    const lines: string[] = [];
    const log = new JsonLogger(
      (l) => lines.push(l),
      () => 0,
    );
    log.info("m", { token: { raw: "abc" }, apiKey: undefined, n: 1 });
    log.info("m", { big: 1n, path: "/a" });
    expect(JSON.parse(lines[0]!)).toEqual({
      time: "1970-01-01T00:00:00.000Z",
      level: "info",
      message: "m",
      token: "[redacted]",
      apiKey: "[redacted]",
      n: 1,
    });
    expect(JSON.parse(lines[1]!)).toEqual({ time: "1970-01-01T00:00:00.000Z", level: "info", message: "m" });
  });
});
