import { EventBus } from "@keyward/core/ports";
import {
  ACCESS_DENIED_EVENT,
  type AccessDeniedPayload,
  SIGN_IN_COMPLETED_EVENT,
  type SignInCompletedPayload,
} from "@keyward/core/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Browser,
  demoSecurity,
  type IdentityTestServer,
  startIdentityServer,
} from "./identity-test-server.js";

describe("identity's events: a completed sign-in and a denied request are published", () => {
  let s: IdentityTestServer;
  const signIns: SignInCompletedPayload[] = [];
  const denials: AccessDeniedPayload[] = [];
  beforeAll(async () => {
    s = await startIdentityServer({ security: demoSecurity });
    const bus = s.platform.resolve(EventBus);
    bus.on<SignInCompletedPayload>(SIGN_IN_COMPLETED_EVENT, (e) => {
      signIns.push(e.payload);
    });
    bus.on<AccessDeniedPayload>(ACCESS_DENIED_EVENT, (e) => {
      denials.push(e.payload);
    });
  });
  afterAll(() => s.close());

  it("publishes a password sign-in, not a failed one", async () => {
    const b = new Browser(s.url);
    expect((await b.postJson("/api/login", { username: "user", password: "wrong" })).status).toBe(401);
    expect(signIns).toEqual([]);
    expect((await b.postJson("/api/login", { username: "user", password: "password" })).status).toBe(200);
    expect(signIns).toMatchObject([{ username: "user", method: "rest", remoteAddress: "127.0.0.1" }]);
    expect(signIns[0]!.userId).toEqual(expect.any(String));
  });

  it("publishes a static rule's denial of a signed-in user with its path and code", async () => {
    const b = new Browser(s.url);
    const login = await b.postJson("/api/login", { username: "user", password: "password" });
    const { accessToken } = (await login.json()) as { accessToken: string };
    denials.length = 0;
    const res = await b.fetch("/admin/api/users", { headers: { authorization: `Bearer ${accessToken}` } });
    expect(res.status).toBe(403);
    expect(denials).toMatchObject([
      { username: "user", method: "GET", path: "/admin/api/users", code: "ACCESS_DENIED" },
    ]);
  });
});
