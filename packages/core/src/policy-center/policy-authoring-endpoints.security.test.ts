import { describe, expect, it } from "vitest";
import { BOB, ROOT, request } from "../authz/policy/policy.fixture.js";
import { urlResource } from "../resources/resources.fixture.js";
import { authoringSetup, formPost, serve, TEST_CSRF } from "./policy-authoring.fixture.js";

const QUICK = "/admin/policy-center/api/quick-create";
const PREVIEW = "/admin/policy-center/api/preview";
const CREATE = "/admin/policy-center/create-policy";
const LEGACY = "/admin/policy-builder/from-resource";
const MARKUP = `<img src=x onerror="alert(1)">'&`;

describe("authoring routes: administrators only", () => {
  it("answers anonymous 401 and a user 403 (audited) on every route, before reading the body, changing nothing", async () => {
    const s = authoringSetup();
    const routes: [string, string][] = [
      ["POST", QUICK],
      ["POST", PREVIEW],
      ["POST", CREATE],
      ["GET", `${LEGACY}?resourceId=x`],
    ];
    for (const [method, url] of routes) {
      const anonymous = await serve(s, request({ method, url, raw: "{not json" }));
      expect([anonymous.status, anonymous.body.code]).toEqual([401, "AUTHENTICATION_REQUIRED"]);
      const user = await serve(s, request({ method, url, raw: "{not json", as: BOB }));
      expect([user.status, user.body.code]).toEqual([403, "ACCESS_DENIED"]);
      expect(user.x.response.headers.get("cache-control")).toBe("no-store");
    }
    expect(await s.policies.findAll()).toEqual([]);
    expect(s.audit.events().filter((e) => e.type === "policy.access-denied")).toHaveLength(4);
    expect(
      s.audit
        .events()
        .filter((e) => e.type === "policy.access-denied")
        .map((e) => e.data?.action),
    ).toEqual(["console:quick-create", "console:preview", "console:create-policy", "console:authoring-page"]);
  });

  it("answers other methods 405 with Allow", async () => {
    const s = authoringSetup();
    for (const [url, allow] of [
      [QUICK, "POST"],
      [PREVIEW, "POST"],
      [CREATE, "POST"],
    ] as const) {
      const answer = await serve(s, request({ method: "PUT", url, as: ROOT }));
      expect([answer.status, answer.x.response.headers.get("allow")]).toEqual([405, allow]);
    }
  });
});

describe("authoring routes: malformed, missing, oversized and hostile input", () => {
  it.each([
    ["malformed JSON", QUICK, "{not json", "application/json", 400, "MALFORMED_JSON"],
    ["a JSON array", QUICK, "[]", "application/json", 400, "MALFORMED_BODY"],
    [
      "a form where JSON is expected",
      QUICK,
      "resourceId=a",
      "application/x-www-form-urlencoded",
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    ],
    ["JSON where a form is expected", CREATE, "{}", "application/json", 415, "UNSUPPORTED_MEDIA_TYPE"],
    [
      "a prototype key",
      QUICK,
      '{"__proto__":{"roles":["A"]},"resourceId":"r"}',
      "application/json",
      400,
      "VALIDATION_FAILED",
    ],
    ["a missing resource id", QUICK, '{"roles":["A"]}', "application/json", 400, "VALIDATION_FAILED"],
    [
      "a wrong type",
      QUICK,
      '{"resourceId":"r","roles":"ADMIN"}',
      "application/json",
      400,
      "VALIDATION_FAILED",
    ],
    [
      "an oversized role list",
      QUICK,
      JSON.stringify({ resourceId: "r", roles: Array(500).fill("A") }),
      "application/json",
      400,
      "VALIDATION_FAILED",
    ],
    [
      "an oversized name",
      QUICK,
      JSON.stringify({ resourceId: "r", roles: ["A"], name: "n".repeat(100_000) }),
      "application/json",
      400,
      "VALIDATION_FAILED",
    ],
    [
      "a CSI in the name",
      QUICK,
      JSON.stringify({ resourceId: "r", roles: ["A"], name: "a\u009b2Jb" }),
      "application/json",
      400,
      "VALIDATION_FAILED",
    ],
    [
      "a draft that is not an object",
      PREVIEW,
      '{"policy":"x"}',
      "application/json",
      400,
      "VALIDATION_FAILED",
    ],
    [
      "an unknown preview field",
      PREVIEW,
      '{"policy":{},"save":true}',
      "application/json",
      400,
      "VALIDATION_FAILED",
    ],
  ])("refuses %s with a stable code, changing nothing", async (_, url, raw, contentType, status, code) => {
    const s = authoringSetup();
    const answer = await serve(s, request({ method: "POST", url, raw, contentType, as: ROOT }));
    expect([answer.status, answer.body.code]).toEqual([status, code]);
    expect(await s.policies.findAll()).toEqual([]);
    expect(s.audit.events()).toEqual([]);
  });

  it("a form of oversized or control-character fields is the form again (422), never a 500, nothing saved", async () => {
    const s = authoringSetup();
    for (const fields of <Record<string, string>[]>[
      { name: "n".repeat(50_000), "target.0.identifier": "/x", action: "save" },
      { name: "ok", "target.0.identifier": `/${"a".repeat(5_000)}`, action: "save" },
      { name: "a\u0000b", "target.0.identifier": "/x", action: "save" },
      {
        name: "ok",
        "target.0.identifier": "/x",
        "rule.0.name": "r",
        "rule.0.condition.0": "\u202EhasRole('A')",
        action: "save",
      },
      { name: "ok", "target.0.identifier": "/x", "sample.path": `/${"p".repeat(3_000)}`, action: "preview" },
      {
        name: "ok",
        "target.0.identifier": "/x",
        "rule.0.name": "r",
        "rule.0.condition.0": "(".repeat(5_000),
        action: "save",
      },
    ]) {
      const answer = await serve(s, formPost(CREATE, { _csrf: TEST_CSRF, ...fields }, ROOT));
      expect(answer.status).toBe(422);
      expect(answer.html).toContain('class="field-error"');
    }
    const unknown = await serve(s, formPost(CREATE, { action: "drop-table" }, ROOT));
    expect(unknown.status).toBe(400);
    expect(await s.policies.findAll()).toEqual([]);
  });

  it("repeated and unknown form fields are read once and ignored: a forged source or approval never reaches the PAP", async () => {
    const s = authoringSetup();
    const raw =
      "action=save&name=First&name=Second&effect=ALLOW&target.0.type=URL&target.0.identifier=%2Fx&target.0.method=GET" +
      "&source=AI_GENERATED&approvalStatus=APPROVED&confidenceScore=1&__proto__=x&constructor=y";
    const answer = await serve(s, formPost(CREATE, raw, ROOT));
    expect(answer.status).toBe(303);
    expect(await s.policies.findAll()).toMatchObject([
      { name: "First", source: "MANUAL", approvalStatus: "NOT_REQUIRED", aiModel: null },
    ]);
  });

  it("markup in a resource's name, a policy's name and typed values renders as text, on every page", async () => {
    const s = authoringSetup();
    const r = await s.seed(urlResource("/api/orders", "GET", { friendlyName: MARKUP }));
    await s.service.define(r.id, {}, ROOT);
    await s.pap.create(
      {
        name: MARKUP,
        effect: "ALLOW",
        priority: 0,
        targets: [{ targetType: "URL", targetIdentifier: "/api/**" }],
        rules: [],
      },
      ROOT,
    );
    const pages = [
      await serve(s, request({ method: "GET", url: `${LEGACY}?resourceId=${r.id}`, as: ROOT })),
      await serve(
        s,
        formPost(
          CREATE,
          {
            _csrf: TEST_CSRF,
            action: "preview",
            resourceId: r.id,
            name: MARKUP,
            description: MARKUP,
            "target.0.identifier": "/api/orders",
            "target.0.method": "GET",
            "rule.0.name": MARKUP,
            "rule.0.condition.0": `hasRole('${MARKUP.replaceAll("'", "''")}')`,
            "sample.roles": MARKUP,
          },
          ROOT,
        ),
      ),
      await serve(
        s,
        formPost(
          CREATE,
          { action: "save", name: MARKUP, "target.0.identifier": "/x", "target.0.method": "NOPE" },
          ROOT,
        ),
      ),
      await serve(s, formPost(CREATE, { action: "quick", resourceId: r.id, "quick.roles": MARKUP }, ROOT)),
    ];
    for (const page of pages) {
      expect(page.html.length).toBeGreaterThan(0);
      expect(page.html).not.toContain("<img");
      expect(page.html).not.toContain('onerror="');
      expect(page.html).toContain("&#60;img src=x onerror=&#34;alert(1)&#34;&#62;&#39;&#38;");
      // No inline script, style or event handler: attribute values (escaped, so free of `"`) set aside.
      const tags = page.html.replace(/"[^"]*"/g, '""');
      expect(tags).not.toMatch(/<script(?! src)|<style|<[^>]*\s(?:style|on[a-z]+)=/i);
    }
    // The preview shows the stored policy with the markup name as text (it shadows the draft).
    expect(pages[1]?.status).toBe(200);
    expect(pages[1]?.html).toMatch(/Shadowed by[\s\S]*&#60;img/);
  });

  it("a quick grant on another resource's id or a hostile one never grants anything", async () => {
    const s = authoringSetup();
    const r = await s.defined("/api/orders", "GET");
    const answer = await serve(
      s,
      request({
        method: "POST",
        url: QUICK,
        body: { resourceId: `${r.id}' or '1'='1`, roles: ["A"] },
        as: ROOT,
      }),
    );
    expect(answer.body.code).toBe("VALIDATION_FAILED");
    expect(await s.policies.findAll()).toEqual([]);
  });
});
