import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_OTT_OUTBOX_FILE, OutboxOneTimeTokenDelivery } from "./outbox-one-time-token-delivery.js";

const message = (n: number) => ({
  username: `user${n}`,
  to: `user${n}`,
  token: `${"t".repeat(40)}${String(n).padStart(3, "0")}`,
  link: `http://localhost:8080/login/ott?token=${n}`,
  channel: "email",
  at: 1_000 + n,
});

describe("OutboxOneTimeTokenDelivery", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "ott-outbox-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("defaults to .platform/outbox.jsonl", () => {
    expect(DEFAULT_OTT_OUTBOX_FILE).toBe(".platform/outbox.jsonl");
    expect(new OutboxOneTimeTokenDelivery().file).toBe(".platform/outbox.jsonl");
  });

  it("appends one JSON line per token, creating the directories, readable by the owner only", async () => {
    const file = join(dir, "a", "b", "outbox.jsonl");
    const outbox = new OutboxOneTimeTokenDelivery({ file });
    await outbox.deliver(message(1));
    await outbox.deliver(message(2));
    const lines = (await readFile(file, "utf8")).split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((l) => JSON.parse(l))).toEqual([message(1), message(2)]);
    expect(Object.keys(JSON.parse(lines[0]!))).toEqual(["at", "channel", "to", "username", "token", "link"]);
    if (process.platform !== "win32") expect((await stat(file)).mode & 0o077).toBe(0);
  });

  it("never interleaves concurrent appends, from one or several instances", async () => {
    const file = join(dir, "outbox.jsonl");
    const one = new OutboxOneTimeTokenDelivery({ file });
    const other = new OutboxOneTimeTokenDelivery({ file });
    const big = (n: number) => ({ ...message(n), link: `http://localhost/${"x".repeat(2_000)}${n}` });
    await Promise.all(Array.from({ length: 100 }, (_, n) => (n % 2 ? one : other).deliver(big(n))));
    const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
    expect(lines).toHaveLength(100);
    const parsed = lines.map((l) => JSON.parse(l) as { at: number });
    expect(new Set(parsed.map((p) => p.at)).size).toBe(100);
  });

  it("reports a failed append as DELIVERY_FAILED with the cause, and keeps working afterwards", async () => {
    const blocker = join(dir, "not-a-dir");
    await writeFile(blocker, "");
    const broken = new OutboxOneTimeTokenDelivery({ file: join(blocker, "outbox.jsonl") });
    const error = await broken.deliver(message(1)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "DELIVERY_FAILED" });
    expect((error as Error).cause).toBeDefined();
    await expect(broken.deliver(message(2))).rejects.toMatchObject({ code: "DELIVERY_FAILED" });
    const file = join(dir, "ok.jsonl");
    const outbox = new OutboxOneTimeTokenDelivery({ file });
    await outbox.deliver(message(3));
    expect(await readFile(file, "utf8")).toContain('"username":"user3"');
  });
});
