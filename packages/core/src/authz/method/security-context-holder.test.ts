import { describe, expect, it } from "vitest";
import type { Authentication } from "../../identity/authentication/authentication.js";
import { setCurrentAuthentication } from "../../identity/authentication/authentication.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { SecurityContextHolder } from "./security-context-holder.js";

const who = (username: string): Authentication => ({
  userId: `id-${username}`,
  username,
  authorities: ["ROLE_USER"],
  method: "form",
  authenticatedAt: 0,
  factors: [{ type: "pwd", at: 0 }],
});
const ALICE = who("alice");
const BOB = who("bob");
const tick = () => new Promise<void>((r) => setTimeout(r, 1));

function exchange(path: string, authentication?: Authentication): HttpExchange {
  const ex = new HttpExchange({ method: "GET", url: path, headers: {}, remoteAddress: "127.0.0.1" });
  setCurrentAuthentication(ex, authentication);
  return ex;
}

describe("SecurityContextHolder scopes", () => {
  it("tracks async context only while a run is open", async () => {
    const context = new SecurityContextHolder();
    expect(context.tracking).toBe(false);
    const pending = context.run(ALICE, async () => {
      await tick();
      return context.tracking;
    });
    expect(context.tracking).toBe(true);
    expect(await pending).toBe(true);
    expect(context.tracking).toBe(false);
    expect(context.run(BOB, () => context.current()?.username)).toBe("bob");
    expect(context.tracking).toBe(false);
  });

  it("ends the scope when fn throws or its promise rejects, passing the error on", async () => {
    const context = new SecurityContextHolder();
    expect(() =>
      context.run(ALICE, () => {
        throw new Error("sync");
      }),
    ).toThrow("sync");
    await expect(
      context.run(ALICE, async () => {
        await tick();
        throw new Error("async");
      }),
    ).rejects.toThrow("async");
    expect(context.tracking).toBe(false);
    expect(context.current()).toBeUndefined();
  });

  it("work left running after the run ended sees no caller, even while another run is open", async () => {
    const context = new SecurityContextHolder();
    let later!: Promise<string | undefined>;
    await context.run(ALICE, async () => {
      later = tick()
        .then(tick)
        .then(() => context.current()?.username);
    });
    let releaseBob!: () => void;
    const bob = context.run(BOB, () => new Promise<void>((r) => (releaseBob = r)));
    expect(context.tracking).toBe(true);
    expect(await later).toBeUndefined();
    releaseBob();
    await bob;
  });
});

describe("SecurityContextHolder.interceptor", () => {
  it("makes the request's authentication current for the rest", async () => {
    const context = new SecurityContextHolder();
    let seen: string | undefined;
    await context.interceptor().intercept(exchange("/x", ALICE), async () => {
      await tick();
      seen = context.current()?.username;
    });
    expect(seen).toBe("alice");
  });

  it("skips requests `when` refuses: no caller, and no tracking when nothing else runs", async () => {
    const context = new SecurityContextHolder();
    const interceptor = context.interceptor({ when: (ex) => ex.path !== "/health" });
    let seen: { who?: string; tracking?: boolean } = {};
    await interceptor.intercept(exchange("/health", ALICE), async () => {
      await tick();
      seen = { who: context.current()?.username, tracking: context.tracking };
    });
    expect(seen).toEqual({ who: undefined, tracking: false });
  });

  it("keeps interleaved concurrent requests apart, skipped ones included", async () => {
    const context = new SecurityContextHolder();
    const interceptor = context.interceptor({ when: (ex) => ex.path !== "/skip" });
    const gates = new Map<string, () => void>();
    const seen: Record<string, (string | undefined)[]> = {};
    const request = (name: string, path: string, authentication?: Authentication) =>
      interceptor.intercept(exchange(path, authentication), async () => {
        const mine: (string | undefined)[] = [];
        seen[name] = mine;
        for (let step = 0; step < 3; step++) {
          await new Promise<void>((r) => gates.set(`${name}${step}`, r));
          mine.push(context.current()?.username);
          await tick();
          mine.push(context.current()?.username);
        }
      });
    const all = Promise.all([
      request("a", "/orders", ALICE),
      request("skip", "/skip", BOB),
      request("b", "/orders", BOB),
      request("anon", "/orders"),
    ]);
    // Release the steps in an order that interleaves the four requests.
    const order = ["b0", "a0", "skip0", "anon0", "a1", "skip1", "b1", "anon1", "skip2", "a2", "anon2", "b2"];
    for (const key of order) {
      while (!gates.has(key)) await tick();
      gates.get(key)?.();
    }
    await all;
    expect(seen).toEqual({
      a: Array(6).fill("alice"),
      b: Array(6).fill("bob"),
      skip: Array(6).fill(undefined),
      anon: Array(6).fill(undefined),
    });
    expect(context.tracking).toBe(false);
  });
});
