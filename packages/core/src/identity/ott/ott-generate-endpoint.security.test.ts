import { describe, expect, it } from "vitest";
import { observable, ottFixture, type RequestInit } from "./ott.fixture.js";

describe("OttGenerateEndpoint: no user enumeration", () => {
  const asJson = (username: string): RequestInit => ({ json: { username } });
  const asForm = (username: string): RequestInit => ({ form: { username, _csrf: "x" } });

  for (const [kind, init] of [
    ["JSON", asJson],
    ["form", asForm],
  ] as const) {
    it(`answers an unknown, locked or disabled user exactly like a known one (${kind})`, async () => {
      const f = await ottFixture();
      const known = observable(await f.send("POST", "/ott/generate", { ...init("alice"), ip: "192.0.2.1" }));
      for (const username of ["nobody", "locked", "disabled"]) {
        const other = observable(
          await f.send("POST", "/ott/generate", { ...init(username), ip: "192.0.2.2" }),
        );
        expect(other, username).toEqual(known);
      }
      await f.handler.whenIdle();
      expect(f.delivery.messages.map((m) => m.username)).toEqual(["Alice"]);
      expect(f.tokenService.records().map((r) => r.username)).toEqual(["Alice"]);
    });
  }

  it("audits the ignored requests with their reason, and stores no token for them", async () => {
    const f = await ottFixture();
    for (const username of ["nobody", "locked", "disabled"]) {
      await f.send("POST", "/ott/generate", { json: { username } });
    }
    expect(f.audit.events().map((e) => [e.type, e.principal, e.data?.reason])).toEqual([
      ["auth.ott.generation-ignored", "nobody", "UNKNOWN_USER"],
      ["auth.ott.generation-ignored", "locked", "ACCOUNT_LOCKED"],
      ["auth.ott.generation-ignored", "disabled", "ACCOUNT_DISABLED"],
    ]);
    expect(f.tokenService.size).toBe(0);
  });

  it("rate-limits unknown usernames exactly like known ones", async () => {
    const f = await ottFixture();
    for (let i = 0; i < 3; i++) {
      await f.send("POST", "/ott/generate", { json: { username: "alice" }, ip: `192.0.2.${i}` });
      await f.send("POST", "/ott/generate", { json: { username: "nobody" }, ip: `192.0.2.${i}` });
    }
    const known = observable(await f.send("POST", "/ott/generate", { json: { username: "alice" } }));
    const unknown = observable(await f.send("POST", "/ott/generate", { json: { username: "nobody" } }));
    expect(known.status).toBe(429);
    expect(unknown).toEqual(known);
  });

  it("answers before the delivery runs, so a slow delivery cannot be timed", async () => {
    const f = await ottFixture();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const deliver = f.delivery.deliver.bind(f.delivery);
    f.delivery.deliver = async (message) => {
      await gate;
      await deliver(message);
    };
    const exchange = await f.send("POST", "/ott/generate", { json: { username: "alice" } });
    expect(exchange.response.status).toBe(200);
    expect(f.delivery.messages).toEqual([]);
    release();
    await f.handler.whenIdle();
    expect(f.delivery.messages).toHaveLength(1);
  });

  it("answers the same when the delivery fails", async () => {
    const f = await ottFixture();
    const ok = observable(
      await f.send("POST", "/ott/generate", { json: { username: "alice" }, ip: "192.0.2.1" }),
    );
    f.delivery.failWith = new Error("smtp down");
    const failed = observable(
      await f.send("POST", "/ott/generate", { json: { username: "alice" }, ip: "192.0.2.2" }),
    );
    await f.handler.whenIdle();
    expect(failed).toEqual(ok);
    expect(f.audit.events().map((e) => e.type)).toContain("auth.ott.delivery-failed");
  });
});
