import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../identity/identity-test-server.js";
import {
  bearerHeaders,
  NO_MFA_FOR_ADMINS,
  type RunningDemo,
  seedUser,
  startDemo,
} from "../support/demo-server.js";

let demo: RunningDemo;
let base = "";

beforeAll(async () => {
  demo = await startDemo({}, NO_MFA_FOR_ADMINS);
  base = demo.base;
  await seedUser(demo.platform, "carol", "carol-pass");
});
afterAll(() => demo.close());

const bearer = (username: string, password: string) => bearerHeaders(base, username, password);

async function place(headers: Record<string, string>, item: string): Promise<string> {
  const res = await fetch(`${base}/api/orders`, { method: "POST", headers, body: JSON.stringify({ item }) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function listed(headers: Record<string, string>): Promise<{ id: string; owner: string }[]> {
  const res = await fetch(`${base}/api/orders`, { headers });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; owner: string }[];
}

describe("GET /api/orders lists the caller's own orders; administrators see all", () => {
  it("a user sees only their orders, another user only theirs, the admin every order (bearer)", async () => {
    const user = await bearer("user", "password");
    const carol = await bearer("carol", "carol-pass");
    const admin = await bearer("admin", "admin");
    const mine = await place(user, "user's book");
    const hers = await place(carol, "carol's lamp");
    const own = await listed(user);
    expect(own.map((o) => o.id)).toContain(mine);
    expect(own.map((o) => o.id)).not.toContain(hers);
    expect(new Set(own.map((o) => o.owner))).toEqual(new Set(["user"]));
    const carols = await listed(carol);
    expect(carols.map((o) => o.id)).toEqual([hers]);
    const all = (await listed(admin)).map((o) => o.id);
    expect(all).toEqual(expect.arrayContaining([mine, hers]));
  });

  it("a browser session is not a caller of /api/** in the demo (the bearer chain's): 401, never a list", async () => {
    const b = new Browser(base);
    const csrf = await b.csrfFrom("/login");
    const signIn = await b.postForm("/login", { username: "carol", password: "carol-pass", _csrf: csrf });
    expect(signIn.status).toBe(302);
    const res = await b.fetch("/api/orders", { headers: { accept: "application/json" } });
    expect(res.status).toBe(401);
  });

  it("an anonymous caller gets 401, not a list", async () => {
    expect((await fetch(`${base}/api/orders`)).status).toBe(401);
  });
});
