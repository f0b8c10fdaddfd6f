import { Clock } from "@keyward/core/ports";
import { ManualClock } from "@keyward/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  demoSecurity,
  type IdentityTestServer,
  startIdentityServer,
} from "../identity-test-server.js";
import { JSON_HEADERS } from "./security-test-support.js";

// Brute-force throttling over HTTP. The server binds 127.0.0.1, so client addresses come from
// X-Forwarded-For with the loopback peer trusted as a proxy (`platform.http.trusted-proxies`).
// Defaults: 5 failures per account and address, 50 per address, 15-minute windows.
const WINDOW_MS = 15 * 60_000;

describe("login throttling per account and address", () => {
  const clock = new ManualClock();
  let server: IdentityTestServer;
  let nextIp = 1;
  beforeAll(async () => {
    server = await startIdentityServer({
      security: demoSecurity,
      properties: { "platform.http.trusted-proxies": "loopback" },
      register: (c) => c.registerInstance(Clock, clock),
    });
  });
  afterAll(() => server.close());

  /** A fresh documentation address per test, so counters never leak between tests. */
  const freshIp = () => `203.0.113.${nextIp++}`;

  async function restLogin(ip: string, username: string, password: string) {
    const res = await fetch(`${server.url}/api/login`, {
      method: "POST",
      headers: { ...JSON_HEADERS, "x-forwarded-for": ip },
      body: JSON.stringify({ username, password }),
    });
    const text = await res.text();
    return {
      status: res.status,
      text,
      body: JSON.parse(text) as Record<string, unknown>,
      headers: res.headers,
    };
  }

  it("blocks the 6th attempt from an address after 5 wrong passwords, even with the right password", async () => {
    const ipA = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await restLogin(ipA, "user", `wrong-${i}`);
      expect(res.status, `attempt ${i + 1}`).toBe(401);
      expect(res.body).toMatchObject({ success: false, code: "BAD_CREDENTIALS" });
    }
    const blocked = await restLogin(ipA, "user", "password");
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ success: false, code: "TOO_MANY_ATTEMPTS" });
    expect(blocked.body).not.toHaveProperty("accessToken");
    const retryAfter = Number(blocked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);
  });

  it("lets the real user sign in from another address meanwhile, and clears after the window", async () => {
    const ipA = freshIp();
    const ipB = freshIp();
    for (let i = 0; i < 5; i++) expect((await restLogin(ipA, "user", "nope")).status).toBe(401);
    expect((await restLogin(ipA, "user", "password")).status).toBe(429);

    const fromB = await restLogin(ipB, "user", "password");
    expect(fromB.status).toBe(200);
    expect(fromB.body).toMatchObject({ success: true });

    // Still blocked just before the window ends; Retry-After counts down with the clock.
    clock.advance(WINDOW_MS - 60_000);
    const late = await restLogin(ipA, "user", "password");
    expect(late.status).toBe(429);
    expect(Number(late.headers.get("retry-after"))).toBeLessThanOrEqual(60);

    clock.advance(60_000 + 1_000);
    const after = await restLogin(ipA, "user", "password");
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ success: true });
  });

  it("blocks the address for that account on the form chain too (the throttle is shared)", async () => {
    const ipA = freshIp();
    for (let i = 0; i < 5; i++) expect((await restLogin(ipA, "user", "bad")).status).toBe(401);
    const browser = new Browser(server.url);
    const csrf = await browser.csrfFrom("/login");
    const res = await browser.postJson(
      "/login",
      { username: "user", password: "password" },
      { "X-CSRF-TOKEN": csrf, "x-forwarded-for": ipA },
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await res.json()).toMatchObject({ success: false, code: "TOO_MANY_ATTEMPTS" });
    const me = await browser.fetch("/api/me", { headers: { accept: "application/json" } });
    expect(me.status).toBe(401);
  });

  it("does not let a blocked address through by changing the username's case or padding", async () => {
    const ipA = freshIp();
    for (let i = 0; i < 5; i++) expect((await restLogin(ipA, "user", "bad")).status).toBe(401);
    for (const name of ["USER", "User"]) {
      const res = await restLogin(ipA, name, "password");
      expect(res.status, name).not.toBe(200);
    }
  });

  it("a blocked pair leaves other accounts from the same address alone", async () => {
    const ipA = freshIp();
    for (let i = 0; i < 5; i++) expect((await restLogin(ipA, "user", "bad")).status).toBe(401);
    expect((await restLogin(ipA, "user", "password")).status).toBe(429);
    expect((await restLogin(ipA, "admin", "admin")).status).toBe(200);
  });

  it("blocks an address that sprays 50 usernames, whatever account it tries next", async () => {
    const ip = freshIp();
    for (let i = 0; i < 50; i++) expect((await restLogin(ip, `spray-${i}`, "Winter2026!")).status).toBe(401);
    const res = await restLogin(ip, "admin", "admin");
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: "TOO_MANY_ATTEMPTS" });
    expect((await restLogin(freshIp(), "admin", "admin")).status).toBe(200);
  });

  it("a successful sign-in clears the pair's counter", async () => {
    const ipA = freshIp();
    for (let i = 0; i < 4; i++) expect((await restLogin(ipA, "user", "bad")).status).toBe(401);
    expect((await restLogin(ipA, "user", "password")).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await restLogin(ipA, "user", "bad")).status).toBe(401);
    expect((await restLogin(ipA, "user", "password")).status).toBe(200);
  });

  it("answers an unknown username exactly like a wrong password (same status, same body)", async () => {
    const wrongPassword = await restLogin(freshIp(), "user", "not-the-password");
    const unknownUser = await restLogin(freshIp(), "nobody-by-this-name", "not-the-password");
    expect(unknownUser.status).toBe(wrongPassword.status);
    expect(unknownUser.text).toBe(wrongPassword.text);
    expect(unknownUser.headers.get("content-type")).toBe(wrongPassword.headers.get("content-type"));
    expect(unknownUser.headers.get("retry-after")).toBeNull();

    // And once throttled, unknown and known usernames get the same 429 answer as well.
    const ip1 = freshIp();
    const ip2 = freshIp();
    for (let i = 0; i < 5; i++) {
      const a = await restLogin(ip1, "user", "bad");
      const b = await restLogin(ip2, "ghost", "bad");
      expect(b.text).toBe(a.text);
    }
    const a = await restLogin(ip1, "user", "bad");
    const b = await restLogin(ip2, "ghost", "bad");
    expect(a.status).toBe(429);
    expect(b.status).toBe(429);
    expect(b.text).toBe(a.text);
    expect(b.headers.get("retry-after")).toBe(a.headers.get("retry-after"));
  });

  it("answers an unknown username like a wrong password on the form chain (JSON and redirect)", async () => {
    const answers: string[] = [];
    for (const username of ["user", "ghost"]) {
      const browser = new Browser(server.url);
      const csrf = await browser.csrfFrom("/login");
      const json = await browser.postJson(
        "/login",
        { username, password: "bad" },
        { "X-CSRF-TOKEN": csrf, "x-forwarded-for": freshIp() },
      );
      answers.push(`${json.status} ${await json.text()}`);
      const form = await browser.postForm(
        "/login",
        { username, password: "bad", _csrf: csrf },
        { "x-forwarded-for": freshIp() },
      );
      answers.push(`${form.status} ${form.headers.get("location")}`);
    }
    expect(answers[2]).toBe(answers[0]);
    expect(answers[3]).toBe(answers[1]);
    expect(answers[1]).toBe("302 /login?error");
  });
});
