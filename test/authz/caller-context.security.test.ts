import { SecurityContextHolder } from "@keyward/core/authz";
import { PasswordHasher, UserRepository } from "@keyward/core/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

// The demo's `GET /api/orders/{id}` is a @Protectable method (owner or admin) that reads the caller
// from the SecurityContextHolder; its interceptor skips /health (callerContext: false).
let demo: RunningDemo;
let headersOf: Record<"user" | "carol", Record<string, string>>;

async function bearer(username: string, password: string): Promise<Record<string, string>> {
  const res = await fetch(`${demo.base}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(200);
  const { accessToken } = (await res.json()) as { accessToken: string };
  return {
    authorization: `Bearer ${accessToken}`,
    accept: "application/json",
    "content-type": "application/json",
  };
}

async function placeOrder(headers: Record<string, string>): Promise<string> {
  const res = await fetch(`${demo.base}/api/orders`, {
    method: "POST",
    headers,
    body: JSON.stringify({ item: "tea" }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

beforeAll(async () => {
  demo = await startDemo({}, NO_MFA_FOR_ADMINS, {
    routes: (routes, platform) => {
      const holder = platform.resolve(SecurityContextHolder);
      const probe = () => ({ tracking: holder.tracking, caller: holder.current()?.username ?? null });
      routes.add({ method: "GET", path: "/probe/scoped", handler: probe });
      routes.add({ method: "GET", path: "/probe/skipped", handler: probe, callerContext: false });
    },
  });
  await demo.platform.resolve(UserRepository).create({
    username: "carol",
    passwordHash: await demo.platform.resolve(PasswordHasher).hash("carol-pass"),
    authorities: ["ROLE_USER"],
  });
  headersOf = { user: await bearer("user", "password"), carol: await bearer("carol", "carol-pass") };
});

afterAll(() => demo.close());

describe("the caller of a protected method under concurrent requests", () => {
  it("is each request's own caller, never another's, with skipped /health requests interleaved", async () => {
    const orderOf = { user: await placeOrder(headersOf.user), carol: await placeOrder(headersOf.carol) };
    const requests: { label: string; expected: number; answer: Promise<Response> }[] = [];
    for (let round = 0; round < 12; round++) {
      for (const who of ["user", "carol"] as const) {
        for (const owner of ["user", "carol"] as const) {
          requests.push({
            label: `${who} reads ${owner}'s order`,
            expected: who === owner ? 200 : 403,
            answer: fetch(`${demo.base}/api/orders/${orderOf[owner]}`, { headers: headersOf[who] }),
          });
        }
      }
      requests.push({ label: "health", expected: 200, answer: fetch(`${demo.base}/health`) });
    }
    const statuses = await Promise.all(requests.map(async (r) => `${r.label}: ${(await r.answer).status}`));
    expect(statuses).toEqual(requests.map((r) => `${r.label}: ${r.expected}`));
    expect(demo.platform.resolve(SecurityContextHolder).tracking).toBe(false);
  });

  it("opens a scope only for routes that may call a protected method", async () => {
    const probe = async (path: string) => {
      const res = await fetch(`${demo.base}${path}`, { headers: headersOf.user });
      expect(res.status).toBe(200);
      return res.json();
    };
    expect(await probe("/probe/scoped")).toEqual({ tracking: true, caller: "user" });
    expect(await probe("/probe/skipped")).toEqual({ tracking: false, caller: null });
    expect(demo.platform.resolve(SecurityContextHolder).tracking).toBe(false);
  });
});
