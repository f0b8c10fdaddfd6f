import { afterAll, describe, expect, it } from "vitest";
import { createIdentityPlugin } from "../../identity/identity-plugin.js";
import { createPlatform, type Platform } from "../../kernel/platform.js";
import { authorizationAdminApi } from "../admin/authz-admin-api.js";
import { authzPlugin } from "../authz-plugin.js";
import { dynamicAuthorization } from "../pdp/dynamic-authorization.js";
import { BOB, ROOT, request, send, setup } from "../policy/policy.fixture.js";
import { StaticRuleEndpoints } from "../admin/static-rule-endpoints.js";
import { PolicyRepository } from "../policy/policy-repository.js";
import { apiChain } from "./static-rule.fixture.js";
import { ChainStaticRuleService, StaticRuleService } from "./static-rule-service.js";

const platforms: Platform[] = [];
afterAll(async () => {
  for (const p of platforms) await p.stop();
});

/** A started platform whose form chain has the static rules `admin` and `reports` name. */
async function platformWith(adminRole: string, reportsAuthority?: string): Promise<Platform> {
  const platform = createPlatform({
    env: {},
    plugins: [
      createIdentityPlugin({
        security: (r) =>
          r
            .form((f) =>
              f.rawHttp((http) =>
                http
                  .authorizeHttpRequests((a) => {
                    a.requestMatchers("/admin/**").hasRole(adminRole);
                    if (reportsAuthority)
                      a.requestMatchers("GET", "/reports/**").hasAuthority(reportsAuthority);
                    a.anyRequest().access(dynamicAuthorization());
                  })
                  .addFilterAfter(authorizationAdminApi(), "authorization"),
              ),
            )
            .session()
            .build(),
      }),
      authzPlugin,
    ],
  });
  platforms.push(platform);
  await platform.start();
  return platform;
}

describe("StaticRuleService on a platform", () => {
  it("lists the rules of THIS platform's chains: two platforms, two different lists", async () => {
    const one = await platformWith("ADMIN");
    const two = await platformWith("OPS", "reports.read");
    const keys = async (p: Platform) =>
      (await p.resolve(StaticRuleService).list(ROOT))
        .filter((e) => e.importable)
        .map((e) => [e.key, e.mapping?.expression]);
    expect(await keys(one)).toEqual([[expect.stringMatching(/:ANY:\/admin\/\*\*$/), "hasAnyRole('ADMIN')"]]);
    expect(await keys(two)).toEqual([
      [expect.stringMatching(/:ANY:\/admin\/\*\*$/), "hasAnyRole('OPS')"],
      [expect.stringMatching(/:GET:\/reports\/\*\*$/), "hasAnyAuthority('reports.read')"],
    ]);
  });

  it("imports idempotently as IMPORTED, NOT_REQUIRED policies that it then reports as shadowed", async () => {
    const platform = platforms[1] ?? (await platformWith("OPS", "reports.read"));
    const rules = platform.resolve(StaticRuleService);
    const first = await rules.import("all", ROOT);
    expect(first.created).toHaveLength(2);
    const again = await rules.import("all", ROOT);
    expect(again).toEqual({ created: [], existing: first.created, refused: [] });
    const listed = await rules.list(ROOT);
    const admin = listed.find((e) => e.key.endsWith(":ANY:/admin/**"))!;
    expect(admin.importedAs).toBe(first.created[0]?.policyId);
    expect(admin.shadows).toEqual([{ policyId: admin.importedAs, name: "Static rule ANY /admin/**" }]);
    const policy = (await platform.resolve(PolicyRepository).findById(admin.importedAs!))!;
    expect(policy).toMatchObject({
      source: "IMPORTED",
      approvalStatus: "NOT_REQUIRED",
      effect: "ALLOW",
      targets: [{ targetType: "URL", targetIdentifier: "/admin/**", httpMethod: "ANY" }],
      rules: [{ name: admin.key, conditions: [{ expression: "hasAnyRole('OPS')" }] }],
    });
    expect(rules.shadowOf(policy)).toMatchObject([
      { chain: admin.chain, position: 0, rule: { kind: "roles" } },
    ]);
    const named = await rules.import([admin.key, "nope", listed.find((e) => !e.importable)!.key], ROOT);
    expect(named.existing).toEqual([{ key: admin.key, policyId: admin.importedAs }]);
    expect(named.refused.map((r) => r.reason.split(" ")[0])).toEqual(["no", "it"]);
  });
});

describe("the static-rule endpoints", () => {
  function endpointSetup() {
    const s = setup();
    const rules = new ChainStaticRuleService({
      chains: () => [apiChain()],
      service: s.service,
      repository: s.repository,
      audit: s.audit,
    });
    return { ...s, endpoints: new StaticRuleEndpoints({ rules, service: s.service }) };
  }
  const LIST = "/admin/api/policies/static-rules";
  const IMPORT = `${LIST}/import`;

  it("lists and imports for an administrator, audited; importing twice creates nothing", async () => {
    const { endpoints, audited, repository } = endpointSetup();
    const list = await send(endpoints, request({ url: LIST, as: ROOT }));
    expect(list.status).toBe(200);
    expect((list.body as unknown as unknown[]).length).toBe(10);
    const first = await send(
      endpoints,
      request({ method: "POST", url: IMPORT, body: { all: true }, as: ROOT }),
    );
    expect([first.status, (first.body.created as unknown[]).length]).toEqual([200, 3]);
    const second = await send(
      endpoints,
      request({ method: "POST", url: IMPORT, body: { keys: ["api:GET:/api/reports/*"] }, as: ROOT }),
    );
    expect(second.body).toMatchObject({ created: [], existing: [{ key: "api:GET:/api/reports/*" }] });
    expect(await repository.findAll({ source: "IMPORTED" })).toHaveLength(3);
    expect(audited("policy.static-rules.imported")).toHaveLength(2);
    expect(audited("policy.created")).toHaveLength(3);
  });

  it("refuses malformed, missing, oversized and hostile bodies with VALIDATION_FAILED, importing nothing", async () => {
    const { endpoints, repository } = endpointSetup();
    for (const body of [
      {},
      { all: false },
      { all: true, keys: ["x"] },
      { keys: [] },
      { keys: "api:ANY:/api/admin/**" },
      { keys: ["x".repeat(301)] },
      { keys: Array.from({ length: 501 }, (_, i) => `k${i}`) },
      { keys: [{ $gt: "" }] },
      { __proto__: { all: true } },
    ]) {
      const answer = await send(endpoints, request({ method: "POST", url: IMPORT, body, as: ROOT }));
      expect([answer.status, answer.body.code], JSON.stringify(body).slice(0, 60)).toEqual([
        400,
        "VALIDATION_FAILED",
      ]);
    }
    const broken = await send(endpoints, request({ method: "POST", url: IMPORT, raw: "{", as: ROOT }));
    expect([broken.status, broken.body.code]).toEqual([400, "MALFORMED_JSON"]);
    expect(await repository.findAll()).toEqual([]);
  });

  it("is for administrators: anonymous 401, a user 403, other methods 405", async () => {
    const { endpoints, repository } = endpointSetup();
    for (const [method, url] of [
      ["GET", LIST],
      ["POST", IMPORT],
    ] as const) {
      const body = method === "POST" ? { all: true } : undefined;
      const anonymous = await send(endpoints, request({ method, url, body }));
      expect([anonymous.status, anonymous.body.code]).toEqual([401, "AUTHENTICATION_REQUIRED"]);
      const user = await send(endpoints, request({ method, url, body, as: BOB }));
      expect([user.status, user.body.code]).toEqual([403, "ACCESS_DENIED"]);
    }
    const wrong = await send(endpoints, request({ method: "DELETE", url: LIST, as: ROOT }));
    expect([wrong.status, wrong.x.response.headers.get("allow")]).toEqual([405, "GET"]);
    const getImport = await send(endpoints, request({ url: IMPORT, as: ROOT }));
    expect([getImport.status, getImport.x.response.headers.get("allow")]).toEqual([405, "POST"]);
    expect(await repository.findAll()).toEqual([]);
  });
});
