import { describe, expect, it } from "vitest";
import { BOB, generated, manual, ROOT, request, send, setup } from "../policy/policy.fixture.js";

const BASE = "/admin/api/policies";

/** Every route of the API, for a policy id. */
function routes(id: string): [string, string, unknown?][] {
  return [
    ["GET", BASE],
    ["POST", BASE, manual()],
    ["GET", `${BASE}/${id}`],
    ["PUT", `${BASE}/${id}`, { version: 1, name: "mine" }],
    ["DELETE", `${BASE}/${id}`],
    ["POST", `${BASE}/${id}/approve`],
    ["POST", `${BASE}/${id}/reject`, { reason: "no" }],
    ["POST", `${BASE}/${id}/activate`],
    ["POST", `${BASE}/${id}/deactivate`],
  ];
}

describe("PolicyAdminEndpoints: callers", () => {
  it("answers 401 AUTHENTICATION_REQUIRED to anonymous and 403 ACCESS_DENIED to non-admins, changing nothing", async () => {
    const { filter, service, repository, changes } = setup();
    const existing = await service.create(generated(), ROOT);
    for (const [method, url, body] of routes(existing.id)) {
      const anonymous = await send(filter, request({ method, url, body }));
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({ code: "AUTHENTICATION_REQUIRED" });
      expect(anonymous.x.response.headers.get("cache-control")).toBe("no-store");
      const user = await send(filter, request({ method, url, body, as: BOB }));
      expect(user.status).toBe(403);
      expect(user.body).toMatchObject({ code: "ACCESS_DENIED" });
      expect(user.x.response.headers.get("cache-control")).toBe("no-store");
    }
    expect(await repository.findAll()).toEqual([existing]);
    expect(changes).toHaveLength(1);
  });

  it("refuses a non-admin before reading the body or validating the id", async () => {
    const { filter } = setup();
    for (const [url, raw] of [
      [BASE, "{not json"],
      [`${BASE}/${"x".repeat(500)}/approve`, ""],
    ] as const) {
      const answer = await send(filter, request({ method: "POST", url, raw, as: BOB }));
      expect(answer.body).toMatchObject({ code: "ACCESS_DENIED" });
    }
  });
});

describe("PolicyAdminEndpoints: hostile and broken requests change nothing", () => {
  const post = async (raw: string, contentType = "application/json") => {
    const s = setup();
    const answer = await send(s.filter, request({ method: "POST", url: BASE, raw, contentType, as: ROOT }));
    expect(await s.repository.findAll()).toEqual([]);
    expect(s.changes).toEqual([]);
    expect(answer.x.response.headers.get("cache-control")).toBe("no-store");
    return answer;
  };

  it("answers 400 MALFORMED_JSON to broken JSON and MALFORMED_BODY to non-objects and deep nesting", async () => {
    expect((await post('{"name": ')).body).toMatchObject({ code: "MALFORMED_JSON" });
    expect((await post("[1, 2]")).body).toMatchObject({ code: "MALFORMED_BODY" });
    const deep = `${'{"a":'.repeat(40)}1${"}".repeat(40)}`;
    const answer = await post(deep);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: "MALFORMED_BODY" });
  });

  it("answers 415 to a form body: JSON only", async () => {
    const answer = await post("name=x&effect=ALLOW", "application/x-www-form-urlencoded");
    expect(answer.status).toBe(415);
  });

  it("answers 400 VALIDATION_FAILED with issues to wrong types, missing and oversized fields", async () => {
    for (const body of [
      {},
      { ...manual(), priority: "1" },
      { ...manual(), name: "n".repeat(201) },
      { ...manual(), targets: Array(51).fill({ targetType: "URL", targetIdentifier: "/x" }) },
      { ...manual(), rules: [{ name: "r", conditions: [{ expression: "x".repeat(4_097) }] }] },
      { ...manual(), targets: [{ targetType: "URL", targetIdentifier: "no-slash" }] },
      { ...manual(), approvalStatus: "APPROVED" },
      { ...manual(), source: "AI_GENERATED", isActive: "yes" },
    ]) {
      const answer = await post(JSON.stringify(body));
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: "VALIDATION_FAILED", issues: expect.any(Array) });
    }
  });

  it("refuses prototype-polluting keys and leaves Object.prototype alone", async () => {
    const answer = await post(
      `{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"name":"x","effect":"ALLOW","targets":[{"targetType":"URL","targetIdentifier":"/a"}]}`,
    );
    expect(answer.body).toMatchObject({ code: "VALIDATION_FAILED" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("stores markup and quotes verbatim as data, never interpreted", async () => {
    const { filter, repository } = setup();
    const name = `<script>alert("x")</script>' OR 1=1 --`;
    const answer = await send(
      filter,
      request({ method: "POST", url: BASE, body: manual({ name }), as: ROOT }),
    );
    expect(answer.status).toBe(201);
    expect((await repository.findAll())[0]?.name).toBe(name);
  });
});

describe("PolicyAdminEndpoints: ids, versions, methods, queries", () => {
  it("validates ids before any lookup: too long or odd characters answer 400", async () => {
    const { filter, service } = setup();
    await service.create(manual(), ROOT);
    for (const id of ["x".repeat(129), "a.b", "a%2Fb", "%00", "a b"]) {
      const answer = await send(filter, request({ url: `${BASE}/${id}`, as: ROOT }));
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: "VALIDATION_FAILED", issues: [{ path: "id" }] });
    }
    const unknown = await send(filter, request({ url: `${BASE}/${"x".repeat(128)}`, as: ROOT }));
    expect(unknown.status).toBe(404);
  });

  it("requires a positive integer version on PUT and refuses unknown or fixed fields", async () => {
    const { filter, service, repository } = setup();
    const created = await service.create(generated(), ROOT);
    for (const body of [
      { name: "no version" },
      { version: "1", name: "x" },
      { version: 1.5, name: "x" },
      { version: 0, name: "x" },
      { version: 1 },
      { version: 1, source: "MANUAL" },
      { version: 1, approvalStatus: "APPROVED" },
      { version: 1, isActive: true },
      { version: 1, id: "other" },
    ]) {
      const answer = await send(
        filter,
        request({ method: "PUT", url: `${BASE}/${created.id}`, body, as: ROOT }),
      );
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: "VALIDATION_FAILED" });
    }
    expect(await repository.findById(created.id)).toEqual(created);
  });

  it("answers 404 to an unknown id on every item route", async () => {
    const { filter } = setup();
    for (const [method, url, body] of routes("unknown-id").slice(2)) {
      const answer = await send(filter, request({ method, url, body, as: ROOT }));
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: "NOT_FOUND" });
    }
  });

  it("answers 405 with Allow to a wrong method on a known route", async () => {
    const { filter, service } = setup();
    const { id } = await service.create(manual(), ROOT);
    for (const [method, url, allow] of [
      ["PATCH", BASE, "GET, POST"],
      ["POST", `${BASE}/${id}`, "GET, PUT, DELETE"],
      ["GET", `${BASE}/${id}/approve`, "POST"],
    ] as const) {
      const answer = await send(filter, request({ method, url, as: ROOT }));
      expect(answer.status).toBe(405);
      expect(answer.x.response.headers.get("allow")).toBe(allow);
    }
  });

  it("refuses bad list queries and a bad rejection body", async () => {
    const { filter, service, repository } = setup();
    for (const query of [
      "?source=HUMAN",
      "?isActive=yes",
      "?targetType=url",
      `?q=${"q".repeat(201)}`,
      "?source=MANUAL&source=IMPORTED",
    ]) {
      const answer = await send(filter, request({ url: `${BASE}${query}`, as: ROOT }));
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: "VALIDATION_FAILED" });
    }
    const pending = await service.create(generated(), ROOT);
    for (const body of [{ reason: 42 }, { reason: "r".repeat(1_001) }, { reason: "x", extra: true }]) {
      const answer = await send(
        filter,
        request({ method: "POST", url: `${BASE}/${pending.id}/reject`, body, as: ROOT }),
      );
      expect(answer.status).toBe(400);
    }
    expect(await repository.findById(pending.id)).toEqual(pending);
  });
});
