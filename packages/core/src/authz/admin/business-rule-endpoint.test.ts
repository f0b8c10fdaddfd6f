import { describe, expect, it } from "vitest";
import { ExpressionCompiler } from "../expression/expression-compiler.js";
import { PolicyExpressionConverter } from "../expression/policy-expression-converter.js";
import { BOB, ROOT, request, send, setup } from "../policy/policy.fixture.js";
import { BusinessRuleEndpoint } from "./business-rule-endpoint.js";

const URL = "/admin/api/policies/build-from-business-rule";
const rule = {
  name: "Orders desk",
  urlPattern: "/api/orders/**",
  httpMethod: "GET",
  roles: ["CLERK"],
  timeWindows: [{ days: ["MONDAY", "TUESDAY"], from: "09:00", to: "17:00", zone: "UTC" }],
  ipRanges: ["10.0.0.0/8"],
  mode: "preview",
};

function ruleSetup() {
  const s = setup();
  const endpoint = new BusinessRuleEndpoint({
    service: s.service,
    compiler: new ExpressionCompiler(),
    converter: new PolicyExpressionConverter(),
    timeZone: "UTC",
  });
  return { ...s, endpoint };
}

describe("POST /admin/api/policies/build-from-business-rule", () => {
  it("previews the converted policy (MANUAL, NOT_REQUIRED) and its expression, storing nothing", async () => {
    const { endpoint, repository, revisions, audited, changes } = ruleSetup();
    const answer = await send(endpoint, request({ method: "POST", url: URL, body: rule, as: ROOT }));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      mode: "preview",
      policy: { name: "Orders desk", source: "MANUAL", approvalStatus: "NOT_REQUIRED", isActive: true },
      expressions: {
        URL: "(hasRole('CLERK')) and (dayOfWeekIn('MONDAY', 'TUESDAY') and timeBetween('09:00', '17:00')) and (hasIpAddress('10.0.0.0/8'))",
      },
    });
    expect(await repository.findAll()).toEqual([]);
    expect(changes).toEqual([]);
    expect(audited("policy.created")).toEqual([]);
    expect(answer.body.policy).not.toHaveProperty("id");
    expect(await revisions.listFor("any")).toEqual([]);
  });

  it("saves through the PAP: 201 + Location, audited, reload told, history written", async () => {
    const { endpoint, repository, revisions, audited, changes } = ruleSetup();
    const answer = await send(
      endpoint,
      request({ method: "POST", url: URL, body: { ...rule, mode: "save" }, as: ROOT }),
    );
    expect(answer.status).toBe(201);
    const saved = answer.body.policy as { id: string; approvalStatus: string; source: string };
    expect(saved).toMatchObject({ source: "MANUAL", approvalStatus: "NOT_REQUIRED" });
    expect(answer.x.response.headers.get("location")).toBe(`/admin/api/policies/${saved.id}`);
    expect(await repository.findById(saved.id)).toEqual(saved);
    expect(audited("policy.created")).toHaveLength(1);
    expect(changes).toEqual([{ type: "policy.created", policyId: saved.id }]);
    expect((await revisions.listFor(saved.id)).map((r) => r.action)).toEqual(["CREATED"]);
  });

  it("answers bad input with the field and a stable code, never a 500, storing nothing", async () => {
    const { endpoint, repository } = ruleSetup();
    const cases: [unknown, number, string, string][] = [
      [{ ...rule, ipRanges: ["300.0.0.1"] }, 400, "VALIDATION_FAILED", "ipRanges.0"],
      [
        { ...rule, timeWindows: [{ days: ["MONDAY"], zone: "Europe/Paris" }] },
        400,
        "VALIDATION_FAILED",
        "timeWindows.0.zone",
      ],
      [
        { ...rule, customConditionSpel: "hasRole('A') and" },
        400,
        "POLICY_EXPRESSION_INVALID",
        "customConditionSpel",
      ],
      [{ ...rule, urlPattern: "/api/{id" }, 400, "VALIDATION_FAILED", "targets.0.targetIdentifier"],
      [{ ...rule, mode: "save", name: "x".repeat(201) }, 400, "VALIDATION_FAILED", "name"],
    ];
    for (const [body, status, code, field] of cases) {
      const answer = await send(endpoint, request({ method: "POST", url: URL, body, as: ROOT }));
      const details = answer.body as { issues?: { path: string }[]; field?: string };
      expect([answer.status, answer.body.code, details.issues?.[0]?.path ?? details.field], field).toEqual([
        status,
        code,
        field,
      ]);
    }
    for (const [raw, code] of [
      ["{not json", "MALFORMED_JSON"],
      ["[]", "MALFORMED_BODY"],
      ["", "VALIDATION_FAILED"],
    ]) {
      const answer = await send(endpoint, request({ method: "POST", url: URL, raw, as: ROOT }));
      expect([answer.status >= 400 && answer.status < 500, answer.body.code], raw).toEqual([true, code]);
    }
    const form = await send(
      endpoint,
      request({
        method: "POST",
        url: URL,
        raw: "name=x",
        contentType: "application/x-www-form-urlencoded",
        as: ROOT,
      }),
    );
    expect([form.status, form.body.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
    const huge = await send(
      endpoint,
      request({ method: "POST", url: URL, body: { ...rule, roles: Array(5_000).fill("A") }, as: ROOT }),
    );
    expect([huge.status, huge.body.code]).toEqual([400, "VALIDATION_FAILED"]);
    expect(await repository.findAll()).toEqual([]);
  });

  it("is for administrators: anonymous 401, a user 403 before the body is read, other methods 405", async () => {
    const { endpoint, repository } = ruleSetup();
    const anonymous = await send(
      endpoint,
      request({ method: "POST", url: URL, body: { ...rule, mode: "save" } }),
    );
    expect([anonymous.status, anonymous.body.code]).toEqual([401, "AUTHENTICATION_REQUIRED"]);
    const user = await send(endpoint, request({ method: "POST", url: URL, raw: "{not json", as: BOB }));
    expect([user.status, user.body.code]).toEqual([403, "ACCESS_DENIED"]);
    const get = await send(endpoint, request({ url: URL, as: ROOT }));
    expect([get.status, get.x.response.headers.get("allow")]).toEqual([405, "POST"]);
    expect(await repository.findAll()).toEqual([]);
  });
});
