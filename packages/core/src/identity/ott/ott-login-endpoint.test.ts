import { describe, expect, it } from "vitest";
import { currentAuthentication } from "../authentication/authentication.js";
import { CLIENT_IP, observable, ottFixture, request } from "./ott.fixture.js";

const INVALID = {
  success: false,
  error: "Invalid or expired sign-in link",
  failureType: "INVALID_TOKEN",
  code: "INVALID_TOKEN",
};
const WINDOW = 15 * 60_000;

describe("OttLoginEndpoint", () => {
  it("is the route identity.ott.login, last, and lets other paths and methods through", async () => {
    const f = await ottFixture();
    expect(f.routes.at(-1)?.name).toBe("identity.ott.login");
    for (const [method, url] of [
      ["PUT", "/login/ott"],
      ["POST", "/login/ott/x"],
      ["POST", "/login"],
    ] as const) {
      const { fellThrough } = await f.run(request(method, url, { json: { token: "x" } }));
      expect(fellThrough, `${method} ${url}`).toBe(true);
    }
  });

  it("signs a JSON client in with a token: context saved, authentication set, success answer", async () => {
    const f = await ottFixture();
    const token = await f.tokenFor("alice");
    f.clock.advance(1_000);
    const exchange = await f.send("POST", "/login/ott", { json: { token } });
    expect(observable(exchange)).toMatchObject({ status: 200, body: { success: true, redirectUrl: "/" } });
    const expected = {
      userId: f.alice.id,
      username: "Alice",
      authorities: ["ROLE_USER"],
      method: "ott",
      authenticatedAt: f.clock.now(),
      factors: [{ type: "otp", at: f.clock.now() }],
    };
    expect(f.repository.saved).toEqual([expected]);
    expect(currentAuthentication(exchange)).toEqual(expected);
    expect(Object.isFrozen(f.repository.saved[0])).toBe(true);
  });

  it("signs a browser in with a form post and redirects it", async () => {
    const f = await ottFixture();
    const token = await f.tokenFor("alice");
    const exchange = await f.send("POST", "/login/ott", { form: { token, username: "", _csrf: "x" } });
    expect(observable(exchange)).toMatchObject({ status: 302, headers: { location: "/" } });
    expect(f.repository.saved).toHaveLength(1);
  });

  it("accepts the token's own username in any case, and a null or blank username as none", async () => {
    const f = await ottFixture({ limits: { maxPerUser: 10 } });
    for (const username of ["ALICE", " alice", null, "  "]) {
      const token = await f.tokenFor("alice", `192.0.2.${f.repository.saved.length + 1}`);
      const exchange = await f.send("POST", "/login/ott", { json: { token, username } });
      expect(exchange.response.status, String(username)).toBe(200);
    }
  });

  it("trims whitespace around a pasted token", async () => {
    const f = await ottFixture();
    const token = await f.tokenFor("alice");
    expect((await f.send("POST", "/login/ott", { json: { token: ` ${token}\n` } })).response.status).toBe(
      200,
    );
  });

  it("refuses an unknown token with 401 INVALID_TOKEN, and sends a browser to the page with ?error", async () => {
    const f = await ottFixture();
    const json = await f.send("POST", "/login/ott", { json: { token: "A".repeat(43) } });
    expect(observable(json)).toMatchObject({ status: 401, body: INVALID });
    const browser = await f.send("POST", "/login/ott", { form: { token: "A".repeat(43) } });
    expect(observable(browser)).toMatchObject({ status: 302, headers: { location: "/login/ott?error" } });
    expect(f.repository.saved).toEqual([]);
  });

  it("accepts a token once", async () => {
    const f = await ottFixture();
    const token = await f.tokenFor("alice");
    expect((await f.send("POST", "/login/ott", { json: { token } })).response.status).toBe(200);
    expect(observable(await f.send("POST", "/login/ott", { json: { token } }))).toMatchObject({
      status: 401,
      body: INVALID,
    });
  });

  it("refuses a token from its expiry on (5 minutes)", async () => {
    const f = await ottFixture();
    const token = await f.tokenFor("alice");
    f.clock.advance(5 * 60_000);
    expect(observable(await f.send("POST", "/login/ott", { json: { token } }))).toMatchObject({
      status: 401,
      body: INVALID,
    });
  });

  it("refuses a token submitted with another username, and spends it", async () => {
    const f = await ottFixture();
    await f.users.create({ username: "bob" });
    const token = await f.tokenFor("alice");
    expect(
      observable(await f.send("POST", "/login/ott", { json: { token, username: "bob" } })),
    ).toMatchObject({
      status: 401,
      body: INVALID,
    });
    expect((await f.send("POST", "/login/ott", { json: { token } })).response.status).toBe(401);
    expect(
      f.audit
        .events()
        .filter((e) => e.type === "auth.login.failure")
        .map((e) => e.data?.reason),
    ).toEqual(["USERNAME_MISMATCH", "INVALID_TOKEN"]);
  });

  it("tells a valid token's holder that the account was locked or disabled since", async () => {
    const f = await ottFixture();
    const token = await f.tokenFor("alice");
    const account = (await f.users.findByUsername("alice"))!;
    const locked = await f.users.update({ ...account, locked: true });
    expect(observable(await f.send("POST", "/login/ott", { json: { token } }))).toMatchObject({
      status: 423,
      body: { success: false, code: "ACCOUNT_LOCKED", failureType: "ACCOUNT_LOCKED" },
    });
    await f.users.update({ ...locked, locked: false });
    const second = await f.tokenFor("alice");
    const unlocked = (await f.users.findByUsername("alice"))!;
    await f.users.update({ ...unlocked, enabled: false });
    expect(observable(await f.send("POST", "/login/ott", { json: { token: second } }))).toMatchObject({
      status: 401,
      body: { success: false, code: "ACCOUNT_DISABLED" },
    });
    expect(f.repository.saved).toEqual([]);
  });

  it("refuses the token of a deleted account as INVALID_TOKEN", async () => {
    const f = await ottFixture();
    const token = await f.tokenFor("alice");
    await f.users.delete(f.alice.id);
    expect(observable(await f.send("POST", "/login/ott", { json: { token } }))).toMatchObject({
      status: 401,
      body: INVALID,
    });
  });

  it("throttles an address after 5 failed submissions for 15 minutes, consuming nothing meanwhile", async () => {
    const f = await ottFixture();
    const token = await f.tokenFor("alice");
    for (let i = 0; i < 5; i++) {
      expect(
        (await f.send("POST", "/login/ott", { json: { token: `${"B".repeat(42)}${i}` } })).response.status,
      ).toBe(401);
    }
    const blocked = await f.send("POST", "/login/ott", { json: { token } });
    expect(observable(blocked)).toMatchObject({
      status: 429,
      headers: { "retry-after": "900" },
      body: { success: false, code: "TOO_MANY_ATTEMPTS", failureType: "TOO_MANY_ATTEMPTS" },
    });
    expect(f.audit.events().at(-1)).toMatchObject({
      type: "auth.login.throttled",
      data: { method: "ott", scope: "account-ip" },
    });
    // The token survived the blocked attempt: another address signs in with it.
    expect(
      (await f.send("POST", "/login/ott", { json: { token }, ip: "198.51.100.7" })).response.status,
    ).toBe(200);
    f.clock.advance(WINDOW);
    const later = await f.tokenFor("alice", "198.51.100.8");
    expect((await f.send("POST", "/login/ott", { json: { token: later } })).response.status).toBe(200);
  });

  it("honours the throttle's limits and clears the address's OTT counter on success", async () => {
    const f = await ottFixture({ throttle: { maxFailuresPerAccountAndIp: 2 } });
    await f.send("POST", "/login/ott", { json: { token: "C".repeat(43) } });
    const token = await f.tokenFor("alice");
    expect((await f.send("POST", "/login/ott", { json: { token } })).response.status).toBe(200);
    await f.send("POST", "/login/ott", { json: { token: "C".repeat(43) } });
    const next = await f.tokenFor("alice");
    expect((await f.send("POST", "/login/ott", { json: { token: next } })).response.status).toBe(200);
  });

  it("audits success and failure with method ott, never the token", async () => {
    const f = await ottFixture();
    const token = await f.tokenFor("alice");
    await f.send("POST", "/login/ott", { json: { token: "D".repeat(43), username: "mallory" } });
    await f.send("POST", "/login/ott", { json: { token } });
    const events = f.audit.events().filter((e) => e.type.startsWith("auth.login."));
    expect(events).toEqual([
      expect.objectContaining({
        type: "auth.login.failure",
        outcome: "failure",
        principal: "mallory",
        remoteAddress: CLIENT_IP,
        data: { method: "ott", reason: "INVALID_TOKEN" },
      }),
      expect.objectContaining({
        type: "auth.login.success",
        outcome: "success",
        principal: "Alice",
        data: { method: "ott", userId: f.alice.id, username: "Alice" },
      }),
    ]);
    expect(JSON.stringify(f.audit.events())).not.toContain(token);
  });

  it("answers on a custom processing URL only", async () => {
    const f = await ottFixture({ override: { loginProcessingUrl: "/magic/verify" } });
    const token = await f.tokenFor("alice");
    const { fellThrough } = await f.run(request("POST", "/login/ott", { json: { token } }));
    expect(fellThrough).toBe(true);
    expect((await f.send("POST", "/magic/verify", { json: { token } })).response.status).toBe(200);
  });

  it("uses the given success and failure handlers and context", async () => {
    const calls: string[] = [];
    const f = await ottFixture({
      override: {
        successHandler: {
          onSuccess: async (exchange, authentication, context) => {
            calls.push(`success ${authentication.username} ${context.chainId}`);
            exchange.json(200, { custom: true });
          },
        },
        failureHandler: {
          onFailure: async (exchange, error, context) => {
            calls.push(`failure ${error.code} ${context.chainId}`);
            exchange.json(418, { custom: true });
          },
        },
      },
    });
    const token = await f.tokenFor("alice");
    await f.send("POST", "/login/ott", { json: { token: "E".repeat(43) } });
    await f.send("POST", "/login/ott", { json: { token } });
    expect(calls).toEqual(["failure INVALID_TOKEN ott", "success Alice ott"]);
  });

  it("lets repository and infrastructure errors propagate (5xx), not the failure handler", async () => {
    const f = await ottFixture();
    const token = await f.tokenFor("alice");
    f.users.findByUsername = async () => {
      throw new Error("database down");
    };
    await expect(f.send("POST", "/login/ott", { json: { token } })).rejects.toThrow("database down");
  });
});
