import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_KEK_FILE, demoStore } from "./demo-store.js";

const tmp = () => mkdtempSync(join(tmpdir(), "demo-store-"));
const URI = "mongodb://demo:s3cret@db.example:27017/shop?authSource=admin";

describe("the demo's store", () => {
  it("stays in memory without a connection string, and says so", () => {
    const store = demoStore({}, undefined, {}, tmp());
    expect(store.host.plugins ?? []).toEqual([]);
    expect(store.lines).toEqual(["  store: in memory (lost at stop; --mongo-uri keeps it in MongoDB)"]);
  });

  it("adds mongoPlugin for --mongo-uri, naming host and database without credentials", () => {
    const cwd = tmp();
    const store = demoStore({}, URI, {}, cwd);
    expect(store.host.plugins?.map((p) => p.id)).toEqual(["mongo"]);
    expect(store.lines[0]).toBe("  store: MongoDB db.example:27017/shop");
    expect(store.lines.join("\n")).not.toMatch(/s3cret|demo:/);
  });

  it("reads platform.mongo.uri from the host configuration, then PLATFORM_MONGO_URI; the flag wins", () => {
    const cwd = tmp();
    const fromHost = demoStore(
      { properties: { "platform.mongo.uri": "mongodb://h1/a" } },
      undefined,
      {},
      cwd,
    );
    expect(fromHost.lines[0]).toBe("  store: MongoDB h1/a");
    const fromEnv = demoStore({}, undefined, { PLATFORM_MONGO_URI: "mongodb://h2/b" }, cwd);
    expect(fromEnv.lines[0]).toBe("  store: MongoDB h2/b");
    const flag = demoStore(
      { properties: { "platform.mongo.uri": "mongodb://h1/a" } },
      "mongodb://h3/c",
      {},
      cwd,
    );
    expect(flag.lines[0]).toBe("  store: MongoDB h3/c");
  });

  it("generates the key-encryption key in memory, writes it (0600) only on persist, then keeps it, never printing it", () => {
    const cwd = tmp();
    const file = join(cwd, DEMO_KEK_FILE);
    const first = demoStore({}, URI, {}, cwd);
    const key = first.host.properties?.["platform.keys.encryption-key"] as string;
    expect(key).toMatch(/^base64url:[A-Za-z0-9_-]{43}$/);
    expect(first.generatedKey).toBe(true);
    expect(first.lines[1]).toContain(`${DEMO_KEK_FILE} (generated now;`);
    // Nothing is written before the start succeeded (issue #25 item 8).
    expect(existsSync(join(cwd, ".platform"))).toBe(false);
    first.persist();
    first.persist(); // once is enough; again is a no-op
    expect(readFileSync(file, "utf8").trim()).toBe(key);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = demoStore({}, URI, {}, cwd);
    expect(second.host.properties?.["platform.keys.encryption-key"]).toBe(key);
    expect(second.generatedKey).toBe(false);
    expect(second.lines[1]).toContain("kept from an earlier start");
    expect([...first.lines, ...second.lines].join("\n")).not.toContain(key.slice("base64url:".length));
  });

  it("a start that never persists leaves no file, and the next start generates afresh", () => {
    const cwd = tmp();
    const failed = demoStore({}, URI, {}, cwd);
    const next = demoStore({}, URI, {}, cwd);
    expect(existsSync(join(cwd, DEMO_KEK_FILE))).toBe(false);
    expect(next.host.properties?.["platform.keys.encryption-key"]).not.toBe(
      failed.host.properties?.["platform.keys.encryption-key"],
    );
  });

  it("keeps a file another start wrote meanwhile: the same key is fine, another one is refused", () => {
    const cwd = tmp();
    const a = demoStore({}, URI, {}, cwd);
    const b = demoStore({}, URI, {}, cwd);
    b.persist();
    expect(() => a.persist()).toThrow(/written by another start with another key/);
    expect(readFileSync(join(cwd, DEMO_KEK_FILE), "utf8").trim()).toBe(
      b.host.properties?.["platform.keys.encryption-key"],
    );
  });

  it("refuses, before any start, a directory the key could not be saved in", () => {
    if (process.getuid?.() === 0) return; // root writes anywhere
    const cwd = tmp();
    chmodSync(cwd, 0o500);
    try {
      expect(() => demoStore({}, URI, {}, cwd)).toThrow(/cannot be written/);
    } finally {
      chmodSync(cwd, 0o700);
    }
  });

  it("refuses a key file other users may read", () => {
    const cwd = tmp();
    demoStore({}, URI, {}, cwd).persist();
    const file = join(cwd, DEMO_KEK_FILE);
    chmodSync(file, 0o644);
    expect(() => demoStore({}, URI, {}, cwd)).toThrow(/may be read by other users: chmod 600/);
  });

  it("uses a configured key-encryption key as it is and writes no file", () => {
    const cwd = tmp();
    const configured = demoStore({}, URI, { PLATFORM_KEYS_ENCRYPTION_KEY: "x".repeat(32) }, cwd);
    expect(configured.host.properties?.["platform.keys.encryption-key"]).toBeUndefined();
    expect(configured.lines).toHaveLength(1);
    expect(() => statSync(join(cwd, DEMO_KEK_FILE))).toThrow();
  });
});
