import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator, type IdGenerator } from "../../kernel/id-generator.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import {
  InMemoryOneTimeTokenService,
  type InMemoryOneTimeTokenServiceOptions,
  ONE_TIME_TOKEN_FORMAT,
} from "./in-memory-one-time-token-service.js";
import { describeOneTimeTokenServiceContract } from "./one-time-token-service.contract.js";
import { hashOneTimeTokenValue } from "./one-time-token-service.js";

describeOneTimeTokenServiceContract(
  "InMemoryOneTimeTokenService",
  (clock) => new InMemoryOneTimeTokenService({ clock, ids: new CryptoIdGenerator() }),
);

function service(options: Partial<InMemoryOneTimeTokenServiceOptions> = {}) {
  const clock = new ManualClock();
  return {
    clock,
    service: new InMemoryOneTimeTokenService({ clock, ids: new CryptoIdGenerator(), ...options }),
  };
}

describe("InMemoryOneTimeTokenService", () => {
  it("issues 43-character base64url values from ids.secret(32)", async () => {
    const asked: (number | undefined)[] = [];
    const ids: IdGenerator = {
      id: () => "id",
      secret: (bytes) => {
        asked.push(bytes);
        return new CryptoIdGenerator().secret(bytes);
      },
    };
    const s = new InMemoryOneTimeTokenService({ clock: new ManualClock(), ids });
    const token = await s.generate({ username: "alice" });
    expect(asked).toEqual([32]);
    expect(token.getTokenValue()).toMatch(ONE_TIME_TOKEN_FORMAT);
    expect(token.getTokenValue()).toHaveLength(43);
  });

  it("stores only the SHA-256 of a value, never the value", async () => {
    const { service: s } = service();
    const token = await s.generate({ username: "alice" });
    const value = token.getTokenValue();
    expect(s.records()).toEqual([
      { tokenHash: hashOneTimeTokenValue(value), username: "alice", expiresAt: token.expiresAt },
    ]);
    expect(JSON.stringify(s.records())).not.toContain(value);
    // Nothing reachable from the instance holds the value either.
    const seen = new Set<unknown>();
    const holds = (v: unknown): boolean => {
      if (typeof v === "string") return v.includes(value);
      if (typeof v !== "object" || v === null || seen.has(v)) return false;
      seen.add(v);
      const entries = v instanceof Map ? [...v.entries()].flat() : Object.values(v);
      return entries.some(holds);
    };
    expect(holds(s)).toBe(false);
  });

  it("honours ttlMs", async () => {
    const { clock, service: s } = service({ ttlMs: 1_000 });
    const token = await s.generate({ username: "alice" });
    expect(token.expiresAt).toBe(clock.now() + 1_000);
    clock.advance(1_000);
    expect(await s.consume({ tokenValue: token.getTokenValue() })).toBeUndefined();
  });

  it("keeps at most maxTokensPerUser live tokens per account (usernames compared by key), evicting the oldest", async () => {
    const { service: s } = service();
    const tokens = [];
    for (const username of ["alice", "ALICE", " Alice", "alice"]) tokens.push(await s.generate({ username }));
    expect(s.size).toBe(3);
    expect(await s.consume({ tokenValue: tokens[0]!.getTokenValue() })).toBeUndefined();
    expect((await s.consume({ tokenValue: tokens[3]!.getTokenValue() }))?.username).toBe("alice");
  });

  it("bounds memory with maxTokens and sweeps expired records on generate", async () => {
    const { clock, service: s } = service({ maxTokens: 2 });
    const a = await s.generate({ username: "a" });
    await s.generate({ username: "b" });
    await s.generate({ username: "c" });
    expect(s.size).toBe(2);
    expect(await s.consume({ tokenValue: a.getTokenValue() })).toBeUndefined();
    clock.advance(5 * 60_000);
    await s.generate({ username: "d" });
    expect(s.records().map((r) => r.username)).toEqual(["d"]);
  });

  it("forgets a consumed or expired-and-tried token at once", async () => {
    const { clock, service: s } = service();
    const a = await s.generate({ username: "a" });
    const b = await s.generate({ username: "b" });
    await s.consume({ tokenValue: a.getTokenValue() });
    clock.advance(5 * 60_000);
    await s.consume({ tokenValue: b.getTokenValue() });
    expect(s.size).toBe(0);
  });

  it("refuses an empty username and bad limits", async () => {
    const { service: s } = service();
    await expect(s.generate({ username: "  " })).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    for (const bad of [{ ttlMs: 0 }, { maxTokensPerUser: 0 }, { maxTokens: 1.5 }]) {
      let code = "accepted";
      try {
        service(bad);
      } catch (error) {
        code = isPlatformError(error) ? error.code : String(error);
      }
      expect(code, JSON.stringify(bad)).toBe("CONFIGURATION_INVALID");
    }
  });

  it("refuses to overwrite a record when the IdGenerator repeats itself", async () => {
    const ids: IdGenerator = { id: () => "id", secret: () => "A".repeat(43) };
    const s = new InMemoryOneTimeTokenService({ clock: new ManualClock(), ids });
    await s.generate({ username: "alice" });
    await expect(s.generate({ username: "mallory" })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(s.records().map((r) => r.username)).toEqual(["alice"]);
  });
});
