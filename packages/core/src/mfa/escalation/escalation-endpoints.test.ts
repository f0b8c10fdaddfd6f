import { describe, expect, it, vi } from "vitest";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { Escalation } from "./escalation.js";
import { ALICE, BOB, exchange, ROOT, setup } from "./escalation.fixture.js";
import {
  AuthorizedEntryRoutesFilter,
  type ChainRoute,
  ChainRoutesFilter,
  declareChainRoutes,
} from "../../identity/chain/chain-route.js";
import { RouteTable } from "../../web/route-table.js";
import { EscalationAdminEndpoints, EscalationStatusEndpoint } from "./escalation-endpoints.js";

const BASE = "/admin/api/mfa/escalations";

/**
 * Serves the endpoints' routes as a chain does: administrators' entry routes wait for the chain's
 * authorization (granted here), then the authorized entry points serve them; `next` is called when
 * none takes the request.
 */
async function run(endpoints: { routes(): ChainRoute[] }, x: HttpExchange) {
  const table = new RouteTable();
  declareChainRoutes(table, "mfa", "entry", endpoints.routes());
  const next = vi.fn(async () => {});
  await new ChainRoutesFilter("mfa", table).filter(x, () =>
    new AuthorizedEntryRoutesFilter().filter(x, next),
  );
  return next;
}

describe("EscalationAdminEndpoints", () => {
  const admin = () => {
    const s = setup();
    return { ...s, filter: new EscalationAdminEndpoints({ service: s.service }) };
  };

  it("lists pending escalations with id, username, reason, createdAt, expiresAt, remoteAddress only", async () => {
    const { filter, openForAlice, clock } = admin();
    const { escalation } = await openForAlice("unusual hour");
    const x = exchange({ url: BASE, as: ROOT });
    await run(filter, x);
    expect(x.response.status).toBe(200);
    expect(x.response.headers.get("cache-control")).toBe("no-store");
    expect(x.response.body).toEqual([
      {
        id: escalation.id,
        username: "alice",
        reason: "unusual hour",
        createdAt: clock.now(),
        expiresAt: escalation.expiresAt,
        remoteAddress: "203.0.113.7",
      },
    ]);
  });

  it("approves and rejects with 200 { id, status, decidedBy }", async () => {
    const { filter, openForAlice } = admin();
    const a = await openForAlice();
    const b = await openForAlice();
    const approve = exchange({ method: "POST", url: `${BASE}/${a.escalation.id}/approve`, as: ROOT });
    await run(filter, approve);
    expect(approve.response).toMatchObject({
      status: 200,
      body: { id: a.escalation.id, status: "APPROVED", decidedBy: "root" },
    });
    const reject = exchange({ method: "POST", url: `${BASE}/${b.escalation.id}/reject`, as: ROOT });
    await run(filter, reject);
    expect(reject.response.body).toEqual({ id: b.escalation.id, status: "REJECTED", decidedBy: "root" });
  });

  it("throws AUTHENTICATION_REQUIRED, ACCESS_DENIED, NOT_FOUND and ILLEGAL_STATE_TRANSITION", async () => {
    const { filter, openForAlice, service } = admin();
    const { escalation } = await openForAlice();
    const decide = (as: typeof ROOT | undefined, id = escalation.id) =>
      run(filter, exchange({ method: "POST", url: `${BASE}/${id}/approve`, ...(as ? { as } : {}) }));
    await expect(run(filter, exchange({ url: BASE }))).rejects.toMatchObject({
      code: "AUTHENTICATION_REQUIRED",
    });
    await expect(decide(undefined)).rejects.toMatchObject({ code: "AUTHENTICATION_REQUIRED" });
    await expect(run(filter, exchange({ url: BASE, as: BOB }))).rejects.toMatchObject({
      code: "ACCESS_DENIED",
    });
    await expect(decide(BOB)).rejects.toMatchObject({ code: "ACCESS_DENIED" });
    await expect(decide(ROOT, "unknown")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await service.reject(escalation.id, ROOT);
    await expect(decide(ROOT)).rejects.toMatchObject({ code: "ILLEGAL_STATE_TRANSITION" });
  });

  it("refuses an administrator's own escalation with 403", async () => {
    const { filter, service } = admin();
    const own = await service.open(exchange(), ROOT, "mfa", "new device");
    await expect(
      run(filter, exchange({ method: "POST", url: `${BASE}/${own.id}/approve`, as: ROOT })),
    ).rejects.toMatchObject({ code: "ACCESS_DENIED" });
  });

  it("passes other requests on", async () => {
    const { filter } = admin();
    for (const [method, url] of [
      ["POST", BASE],
      ["GET", `${BASE}/x/approve`],
      ["POST", `${BASE}/x/delete`],
      ["POST", `${BASE}/x/y/approve`],
      ["GET", "/elsewhere"],
    ] as const) {
      const x = exchange({ method, url, as: ROOT });
      expect(await run(filter, x)).toHaveBeenCalledOnce();
      expect(x.response.committed).toBe(false);
    }
  });

  it("honours a custom basePath", async () => {
    const s = setup();
    const filter = new EscalationAdminEndpoints({ service: s.service, basePath: "/ops/escalations/" });
    const x = exchange({ url: "/ops/escalations", as: ROOT });
    await run(filter, x);
    expect(x.response.body).toEqual([]);
  });
});

describe("EscalationStatusEndpoint", () => {
  const status = () => {
    const s = setup(60_000);
    const complete = vi.fn(async (x: HttpExchange, e: Escalation) => {
      x.json(200, { signedIn: e.username });
    });
    return { ...s, complete, filter: new EscalationStatusEndpoint({ service: s.service, complete }) };
  };
  const poll = async (f: EscalationStatusEndpoint, cookie?: string, method = "GET") => {
    const x = exchange({ method, url: "/api/mfa/escalation", ...(cookie ? { cookie } : {}) });
    await run(f, x);
    return x;
  };

  it("answers PENDING with retryAfterSeconds 5, for GET and POST", async () => {
    const { filter, openForAlice } = status();
    const { cookie } = await openForAlice();
    for (const method of ["GET", "POST"]) {
      const x = await poll(filter, cookie, method);
      expect(x.response).toMatchObject({ status: 200, body: { status: "PENDING", retryAfterSeconds: 5 } });
      expect(x.response.headers.get("retry-after")).toBe("5");
    }
  });

  it("calls complete exactly once after an approval; a later poll gets 401 MFA_SESSION_EXPIRED", async () => {
    const { filter, openForAlice, service, complete } = status();
    const { escalation, cookie } = await openForAlice();
    await service.approve(escalation.id, ROOT);
    const first = await poll(filter, cookie);
    expect(first.response).toMatchObject({ status: 200, body: { signedIn: "alice" } });
    expect(complete).toHaveBeenCalledOnce();
    expect(complete.mock.calls[0]?.[1]).toMatchObject({ status: "COMPLETED", primary: ALICE });
    const second = await poll(filter, cookie, "POST");
    expect(second.response).toMatchObject({
      status: 401,
      body: { code: "MFA_SESSION_EXPIRED", status: "COMPLETED" },
    });
    expect(complete).toHaveBeenCalledOnce();
  });

  it("answers 200 COMPLETED itself when complete did not answer", async () => {
    const s = setup();
    const filter = new EscalationStatusEndpoint({ service: s.service, complete: async () => {} });
    const { escalation, cookie } = await s.openForAlice();
    await s.service.approve(escalation.id, ROOT);
    const x = await poll(filter, cookie);
    expect(x.response).toMatchObject({ status: 200, body: { status: "COMPLETED" } });
  });

  it("answers 403 AUTHENTICATION_BLOCKED after a rejection", async () => {
    const { filter, openForAlice, service, complete } = status();
    const { escalation, cookie } = await openForAlice();
    await service.reject(escalation.id, ROOT);
    const x = await poll(filter, cookie);
    expect(x.response).toMatchObject({
      status: 403,
      body: { code: "AUTHENTICATION_BLOCKED", status: "REJECTED" },
    });
    expect(complete).not.toHaveBeenCalled();
  });

  it("answers 401 MFA_SESSION_EXPIRED once the escalation expired", async () => {
    const { filter, openForAlice, clock } = status();
    const { cookie } = await openForAlice();
    clock.advance(60_000);
    const x = await poll(filter, cookie);
    expect(x.response).toMatchObject({
      status: 401,
      body: { code: "MFA_SESSION_EXPIRED", status: "EXPIRED" },
    });
  });

  it("answers 401 MFA_SESSION_REQUIRED without a cookie or with a forged one", async () => {
    const { filter, openForAlice, service, complete } = status();
    const { escalation } = await openForAlice();
    await service.approve(escalation.id, ROOT);
    for (const cookie of [undefined, `PLATFORM_ESCALATION=${escalation.id}.forged`]) {
      const x = await poll(filter, cookie);
      expect(x.response).toMatchObject({ status: 401, body: { code: "MFA_SESSION_REQUIRED" } });
    }
    expect(complete).not.toHaveBeenCalled();
  });

  it("passes other requests on", async () => {
    const { filter } = status();
    for (const [method, url] of [
      ["GET", "/api/mfa/status"],
      ["DELETE", "/api/mfa/escalation"],
    ] as const) {
      const x = exchange({ method, url });
      expect(await run(filter, x)).toHaveBeenCalledOnce();
    }
  });
});
