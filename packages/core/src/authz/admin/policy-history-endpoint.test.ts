import { describe, expect, it } from "vitest";
import { BOB, generated, manual, ROOT, request, send, setup } from "../policy/policy.fixture.js";
import { PolicyHistoryEndpoint } from "./policy-history-endpoint.js";

const BASE = "/admin/api/policies";

function historySetup() {
  const s = setup();
  return { ...s, endpoint: new PolicyHistoryEndpoint({ service: s.service }) };
}

describe("GET /admin/api/policies/{id}/history", () => {
  it("answers the revisions newest first, with who, when, what and the version", async () => {
    const { endpoint, service } = historySetup();
    const created = await service.create(generated(), ROOT);
    await service.reject(created.id, ROOT, "<b>too broad</b>");
    const answer = await send(endpoint, request({ url: `${BASE}/${created.id}/history`, as: ROOT }));
    expect(answer.status).toBe(200);
    expect(answer.x.response.headers.get("cache-control")).toBe("no-store");
    const body = answer.body as unknown as Array<Record<string, unknown>>;
    expect(body.map((r) => [r.action, r.policyVersion, r.actor])).toEqual([
      ["REJECTED", 2, "root"],
      ["CREATED", 1, "root"],
    ]);
    expect(body[0]).toMatchObject({
      reason: "<b>too broad</b>",
      changedFields: ["approvalStatus", "isActive"],
    });
  });

  it("still answers a deleted policy's history; NOT_FOUND for a policy that never was", async () => {
    const { endpoint, service } = historySetup();
    const created = await service.create(manual(), ROOT);
    await service.delete(created.id, ROOT);
    const deleted = await send(endpoint, request({ url: `${BASE}/${created.id}/history`, as: ROOT }));
    expect((deleted.body as unknown as { action: string }[]).map((r) => r.action)).toEqual([
      "DELETED",
      "CREATED",
    ]);
    const unknown = await send(endpoint, request({ url: `${BASE}/no-such-policy/history`, as: ROOT }));
    expect([unknown.status, unknown.body.code]).toEqual([404, "NOT_FOUND"]);
  });

  it("answers an empty history for a policy stored without the PAP (seeded before history existed)", async () => {
    const { endpoint, repository } = historySetup();
    const seeded = await repository.create({
      ...manual(),
      source: "MANUAL",
      approvalStatus: "NOT_REQUIRED",
      isActive: true,
      confidenceScore: null,
      aiModel: null,
      description: "",
      priority: 0,
      effect: "ALLOW",
      targets: [
        {
          targetType: "URL",
          targetIdentifier: "/a",
          httpMethod: "ANY",
          targetOrder: 0,
          sourceType: "MANUAL",
        },
      ],
      rules: [],
    });
    const answer = await send(endpoint, request({ url: `${BASE}/${seeded.id}/history`, as: ROOT }));
    expect([answer.status, answer.body]).toEqual([200, []]);
  });

  it("takes ?limit= from 1 to 1,000, once, and nothing else", async () => {
    const { endpoint, service } = historySetup();
    const created = await service.create(manual(), ROOT);
    for (let p = 1; p <= 3; p++) await service.update(created.id, p, { priority: p }, ROOT);
    const two = await send(endpoint, request({ url: `${BASE}/${created.id}/history?limit=2`, as: ROOT }));
    expect((two.body as unknown as { policyVersion: number }[]).map((r) => r.policyVersion)).toEqual([4, 3]);
    const max = await send(endpoint, request({ url: `${BASE}/${created.id}/history?limit=1000`, as: ROOT }));
    expect(max.status).toBe(200);
    for (const query of [
      "limit=0",
      "limit=1001",
      "limit=-1",
      "limit=1.5",
      "limit=abc",
      "limit=",
      "limit=1&limit=2",
      `limit=${"9".repeat(5_000)}`,
      "offset=1",
      `${"<script>".repeat(100)}=1`,
    ]) {
      const answer = await send(
        endpoint,
        request({ url: `${BASE}/${created.id}/history?${query}`, as: ROOT }),
      );
      expect([answer.status, answer.body.code], query.slice(0, 40)).toEqual([400, "VALIDATION_FAILED"]);
      expect(JSON.stringify(answer.body).length).toBeLessThan(1_000);
    }
  });

  it("refuses a malformed or oversized id with VALIDATION_FAILED, never a lookup", async () => {
    const { endpoint } = historySetup();
    for (const id of ["x".repeat(129), "a%20b", "..", "%3Cscript%3E"]) {
      const answer = await send(endpoint, request({ url: `${BASE}/${id}/history`, as: ROOT }));
      expect([answer.status, answer.body.code], id).toEqual([400, "VALIDATION_FAILED"]);
    }
  });

  it("is for administrators: anonymous 401, a user 403 (audited), other methods 405", async () => {
    const { endpoint, service, audited } = historySetup();
    const created = await service.create(manual(), ROOT);
    const url = `${BASE}/${created.id}/history`;
    const anonymous = await send(endpoint, request({ url }));
    expect([anonymous.status, anonymous.body.code]).toEqual([401, "AUTHENTICATION_REQUIRED"]);
    const user = await send(endpoint, request({ url, as: BOB }));
    expect([user.status, user.body.code]).toEqual([403, "ACCESS_DENIED"]);
    expect(audited("policy.access-denied")).toHaveLength(1);
    const post = await send(endpoint, request({ method: "POST", url, body: {}, as: ROOT }));
    expect([post.status, post.x.response.headers.get("allow")]).toEqual([405, "GET"]);
  });
});
