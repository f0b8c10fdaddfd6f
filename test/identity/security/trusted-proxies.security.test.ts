import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_MFA_FOR_ADMINS, type RunningDemo, seedUser, startDemo } from "../../support/demo-server.js";
import { Browser } from "../identity-test-server.js";

// The demo behind a trusted appending proxy (nginx's $proxy_add_x_forwarded_for). The test client
// connects from 127.0.0.1 and plays that proxy: it sends `<whatever the client wrote>, <the address
// the proxy saw>`. Whatever a client writes left of the proxy's entry must not change who it is.
const PROXY_TRUST = { "platform.http.trusted-proxies": "loopback" };
const CLIENT = "198.51.100.7";

let demo: RunningDemo;
let base = "";

beforeAll(async () => {
  demo = await startDemo({}, { ...NO_MFA_FOR_ADMINS, ...PROXY_TRUST });
  base = demo.base;
  await seedUser(demo.platform, "carol", "carol-pass");
});
afterAll(() => demo.close());

function login(forwardedFor: string, username: string, password: string): Promise<Response> {
  return fetch(`${base}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor },
    body: JSON.stringify({ username, password }),
  });
}

describe("behind a trusted appending proxy a client cannot choose its throttle identity", () => {
  it("60 wrong passwords from 60 invented X-Forwarded-For values are counted against the real client: 429, then the right password is still refused", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await login(`203.0.113.${i + 1}, ${CLIENT}`, "carol", `wrong-${i}`);
      await res.body?.cancel();
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));

    const right = await login(`192.0.2.99, ${CLIENT}`, "carol", "carol-pass");
    expect(right.status).toBe(429);
    expect(await right.json()).toMatchObject({ code: "TOO_MANY_ATTEMPTS" });
    expect(right.headers.get("retry-after")).toMatch(/^\d+$/);

    // The real user elsewhere is not locked out (failures count per account and address).
    expect((await login("198.51.100.8", "carol", "carol-pass")).status).toBe(200);
  });
});

describe("hasIpAddress sees the address the trusted proxy reported", () => {
  it("a client in a denied range cannot escape it by writing another address in front", async () => {
    const admin = new Browser(base);
    const csrf = await admin.csrfFrom("/login");
    expect(
      (await admin.postForm("/login", { username: "admin", password: "admin", _csrf: csrf })).status,
    ).toBe(302);
    const created = await admin.postJson(
      "/admin/api/policies",
      {
        name: "Orders: not from 203.0.113.0/24",
        description: "trusted-proxy test",
        effect: "DENY",
        priority: 1,
        targets: [{ targetType: "URL", targetIdentifier: "/api/orders", httpMethod: "GET" }],
        rules: [{ name: "range", conditions: [{ expression: "hasIpAddress('203.0.113.0/24')" }] }],
      },
      { "x-csrf-token": await admin.csrfFrom("/") },
    );
    expect(created.status).toBe(201);

    const signedIn = await login("192.0.2.50", "user", "password");
    expect(signedIn.status).toBe(200);
    const { accessToken } = (await signedIn.json()) as { accessToken: string };
    const orders = (forwardedFor?: string) =>
      fetch(`${base}/api/orders`, {
        headers: {
          authorization: `Bearer ${accessToken}`,
          accept: "application/json",
          ...(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor }),
        },
      });

    const forged = await orders("198.51.100.1, 203.0.113.9");
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ code: "ACCESS_DENIED" });
    expect((await orders("203.0.113.9")).status).toBe(403);
    expect((await orders("203.0.113.9, 198.51.100.1")).status).toBe(200);
    expect((await orders()).status).toBe(200); // the proxy itself (127.0.0.1)
  });
});
