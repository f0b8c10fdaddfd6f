import { describe, expect, it } from "vitest";
import { ExpressionCompiler } from "../authz/expression/expression-compiler.js";
import { PolicyExpressionConverter } from "../authz/expression/policy-expression-converter.js";
import { InMemoryPolicyRepository } from "../authz/policy/in-memory-policy-repository.js";
import { PolicyAdministrationService } from "../authz/policy/policy-administration-service.js";
import { ROOT, request, send } from "../authz/policy/policy.fixture.js";
import { CryptoIdGenerator } from "../kernel/id-generator.js";
import { targeting } from "../resources/resources.fixture.js";
import { type AuthoringPage, PolicyAuthoringEndpoints } from "./policy-authoring-endpoints.js";
import { authoringSetup, formPost, serve, TEST_CSRF } from "./policy-authoring.fixture.js";
import { authoringRoutesOf } from "./policy-authoring-routes.js";

const CREATE = "/admin/policy-center/create-policy";
const manual = (over: Record<string, string> = {}) => ({
  _csrf: TEST_CSRF,
  resourceId: "",
  name: "Order managers",
  description: "Managers read orders",
  effect: "ALLOW",
  priority: "5",
  "target.0.type": "URL",
  "target.0.identifier": "/api/orders/{id}",
  "target.0.method": "GET",
  "rule.0.name": "managers",
  "rule.0.condition.0": "hasRole('MANAGER')",
  "rule.0.condition.1": "",
  ...over,
});

describe("quick create (JSON)", () => {
  it("answers 201 with the policy and the resource's new status", async () => {
    const s = authoringSetup();
    const r = await s.defined("/api/orders", "POST");
    const body = { resourceId: r.id, roles: ["USER"], permissions: ["order:place"] };
    const answer = await serve(
      s,
      request({ method: "POST", url: "/admin/policy-center/api/quick-create", body, as: ROOT }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      policy: { effect: "ALLOW", source: "MANUAL", approvalStatus: "NOT_REQUIRED" },
      resource: { id: r.id, status: "POLICY_CONNECTED" },
    });
    const id = (answer.body.policy as { id: string }).id;
    expect(answer.location).toBe(`/admin/api/policies/${id}`);
    expect(answer.x.response.headers.get("cache-control")).toBe("no-store");
  });

  it("answers 404 for an unknown resource, 409 for one not defined yet, 400 without roles or permissions", async () => {
    const s = authoringSetup();
    const fresh = await s.seed((await import("../resources/resources.fixture.js")).urlResource("/api/new"));
    const post = (body: unknown) =>
      serve(s, request({ method: "POST", url: "/admin/policy-center/api/quick-create", body, as: ROOT }));
    expect((await post({ resourceId: "missing", roles: ["A"] })).status).toBe(404);
    expect(await post({ resourceId: fresh.id, roles: ["A"] })).toMatchObject({
      status: 409,
      body: { code: "ILLEGAL_STATE_TRANSITION" },
    });
    expect(await post({ resourceId: fresh.id, roles: [], permissions: [] })).toMatchObject({
      status: 400,
      body: { code: "VALIDATION_FAILED", issues: [{ path: "roles" }] },
    });
    expect(await s.policies.findAll()).toEqual([]);
  });
});

describe("preview (JSON)", () => {
  it("answers the preview of a draft for a sample", async () => {
    const s = authoringSetup();
    const body = {
      policy: {
        name: "P",
        effect: "DENY",
        targets: [{ targetType: "URL", targetIdentifier: "/api/**" }],
        rules: [],
      },
      sample: { method: "DELETE", path: "/api/orders/1", roles: ["ADMIN"] },
    };
    const answer = await serve(
      s,
      request({ method: "POST", url: "/admin/policy-center/api/preview", body, as: ROOT }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      expressions: { URL: "denyAll" },
      simulation: {
        method: "DELETE",
        path: "/api/orders/1",
        decision: { granted: false },
        decidedByDraft: true,
      },
      impact: { algorithm: "FIRST_APPLICABLE", resources: [], shadowedBy: [], shadows: [] },
    });
    expect(await s.policies.findAll()).toEqual([]);
  });

  it("answers 400 VALIDATION_FAILED or POLICY_EXPRESSION_INVALID for a bad draft", async () => {
    const s = authoringSetup();
    const post = (body: unknown) =>
      serve(s, request({ method: "POST", url: "/admin/policy-center/api/preview", body, as: ROOT }));
    const bad = { name: "P", effect: "ALLOW", targets: [{ targetType: "URL", targetIdentifier: "/x" }] };
    expect((await post({ policy: { ...bad, targets: [] } })).body).toMatchObject({
      code: "VALIDATION_FAILED",
    });
    expect((await post({ policy: bad, sample: { path: "no-slash" } })).body).toMatchObject({
      code: "VALIDATION_FAILED",
    });
    expect(
      (await post({ policy: { ...bad, rules: [{ name: "r", conditions: [{ expression: "hasRole(" }] }] } }))
        .body,
    ).toMatchObject({ code: "POLICY_EXPRESSION_INVALID" });
  });
});

describe("the manual form (create-policy)", () => {
  it("action=preview re-renders the create tab with the values and the preview", async () => {
    const s = authoringSetup();
    await s.pap.create(targeting("/api/**", "ANY", { name: "API first", priority: 1 }), ROOT);
    const answer = await serve(
      s,
      formPost(CREATE, manual({ action: "preview", "sample.roles": "MANAGER" }), ROOT),
    );
    expect(answer.status).toBe(200);
    expect(answer.html).toContain('value="Order managers"');
    expect(answer.html).toContain('id="policy-preview"');
    expect(answer.html).toContain("<code>hasRole(&#39;MANAGER&#39;)</code>");
    expect(answer.html).toMatch(
      /<code>GET \/api\/orders\/1<\/code> as simulated \(ROLE_MANAGER\): <strong>denied<\/strong> by &#39;API first&#39;/,
    );
    expect(answer.html).toMatch(/Shadowed by[\s\S]*API first[\s\S]*this policy would never decide/);
    expect(answer.html).toContain(`name="_csrf" value="${"csrf-token-&#60;&#38;&#62;"}"`);
    expect(await s.policies.findAll()).toHaveLength(1);
  });

  it("action=save creates the policy (MANUAL, NOT_REQUIRED), audits it and redirects 303 to the policies tab", async () => {
    const s = authoringSetup();
    const r = await s.defined("/api/orders/{id}", "GET");
    const answer = await serve(
      s,
      formPost(CREATE, manual({ action: "save", resourceId: r.id, "target.0.source": "RESOURCE" }), ROOT),
    );
    const [policy] = await s.policies.findAll();
    expect(answer.status).toBe(303);
    expect(answer.location).toBe("/admin/policy-center?tab=policies&notice=saved");
    expect(policy).toMatchObject({
      source: "MANUAL",
      approvalStatus: "NOT_REQUIRED",
      priority: 5,
      isActive: true,
    });
    expect(await s.status(r.id)).toBe("POLICY_CONNECTED");
    expect(s.audit.events().find((e) => e.type === "policy-center.create")).toMatchObject({
      principal: "root",
      data: { policyId: policy?.id, resourceId: r.id },
    });
  });

  it("refuses an invalid form with 422: values kept, each error next to its field, nothing saved", async () => {
    const s = authoringSetup();
    const answer = await serve(
      s,
      formPost(
        CREATE,
        manual({
          action: "preview",
          name: "",
          priority: "high",
          "rule.0.condition.0": "hasRole('MANAGER'",
          "sample.path": "x",
        }),
        ROOT,
      ),
    );
    expect(answer.status).toBe(422);
    expect(answer.html).toContain('id="err-sample-path"');
    expect(answer.html).toMatch(
      /id="f-name" name="name" value=""[^>]*aria-invalid="true" aria-describedby="err-name"><span class="field-error" id="err-name">give the policy a name/,
    );
    expect(answer.html).toMatch(/name="priority" value="high"[^>]*aria-invalid="true"/);
    expect(answer.html).toContain('value="hasRole(&#39;MANAGER&#39;"');
    expect(await s.policies.findAll()).toEqual([]);
    // The expression error is placed once the other fields are valid.
    const second = await serve(
      s,
      formPost(CREATE, manual({ action: "save", "rule.0.condition.0": "hasRole('MANAGER'" }), ROOT),
    );
    expect(second.status).toBe(422);
    expect(second.html).toMatch(
      /aria-describedby="err-rule-0-condition-0"><span class="field-error" id="err-rule-0-condition-0">not a valid expression/,
    );
    const pattern = await serve(
      s,
      formPost(CREATE, manual({ action: "save", "target.0.identifier": "/api/{a}/{a}" }), ROOT),
    );
    expect(pattern.status).toBe(422);
    expect(pattern.html).toMatch(/id="err-target-0-identifier"/);
    expect(await s.policies.findAll()).toEqual([]);
    expect(s.audit.events()).toEqual([]);
  });

  it("a write the store refuses (CONFLICT: full) is the form again with 409, values kept", async () => {
    const s = authoringSetup();
    // A policy store that holds one policy, already holding it.
    const full = new InMemoryPolicyRepository({
      clock: s.clock,
      ids: new CryptoIdGenerator(),
      maxPolicies: 1,
    });
    const pap = new PolicyAdministrationService({
      repository: full,
      audit: s.audit,
      logger: s.logger,
      compiler: new ExpressionCompiler(),
      converter: new PolicyExpressionConverter(),
    });
    await pap.create(targeting("/a"), ROOT);
    const endpoints = new PolicyAuthoringEndpoints({ ...s.endpointOptions, pap });
    const x = formPost(CREATE, manual({ action: "save" }), ROOT);
    await send({ routes: () => authoringRoutesOf(endpoints) }, x);
    expect(x.response.status).toBe(409);
    expect(x.response.body).toContain("The policy store is full");
    expect(x.response.body).toContain('value="Order managers"');
  });

  it("a template's Add button puts its condition into the chosen rule, without script", async () => {
    const s = authoringSetup();
    const answer = await serve(
      s,
      formPost(
        CREATE,
        manual({
          action: "template:business-hours",
          templateRule: "0",
          "tpl.business-hours.start": "08:00",
          "tpl.business-hours.end": "17:30",
          "tpl.business-hours.days": "MON-FRI",
        }),
        ROOT,
      ),
    );
    expect(answer.status).toBe(422);
    expect(answer.html).toContain('id="err-tpl-business-hours"');
    const ok = await serve(
      s,
      formPost(
        CREATE,
        manual({
          action: "template:business-hours",
          templateRule: "0",
          "tpl.business-hours.start": "08:00",
          "tpl.business-hours.end": "17:30",
          "tpl.business-hours.days": "MON TUE",
        }),
        ROOT,
      ),
    );
    expect(ok.status).toBe(200);
    // Joined `and` by default: business hours narrow the rule's condition, they grant nothing alone.
    expect(ok.html).toContain(
      'name="rule.0.condition.0" value="(hasRole(&#39;MANAGER&#39;)) and (timeBetween(&#39;08:00&#39;, &#39;17:30&#39;) and dayOfWeekIn(&#39;MON&#39;, &#39;TUE&#39;))"',
    );
    expect(ok.html).not.toContain('name="rule.0.condition.1" value="timeBetween');
  });

  it("the quick-grant form posts here without script: 303 on success, the form again on refusal", async () => {
    const s = authoringSetup();
    const r = await s.defined("/api/orders", "GET");
    const ok = await serve(
      s,
      formPost(
        CREATE,
        {
          _csrf: TEST_CSRF,
          action: "quick",
          resourceId: r.id,
          "quick.roles": "USER, AUDITOR",
          "quick.permissions": "",
        },
        ROOT,
      ),
    );
    expect(ok.status).toBe(303);
    expect((await s.policies.findAll())[0]?.rules[0]?.conditions).toEqual([
      { expression: "hasAnyRole('USER', 'AUDITOR')" },
    ]);
    const none = await serve(
      s,
      formPost(CREATE, { action: "quick", resourceId: r.id, "quick.roles": "" }, ROOT),
    );
    expect(none.status).toBe(422);
    expect(none.html).toContain('id="err-quick-roles"');
    const fresh = await s.seed((await import("../resources/resources.fixture.js")).urlResource("/api/new"));
    const early = await serve(
      s,
      formPost(CREATE, { action: "quick", resourceId: fresh.id, "quick.roles": "USER" }, ROOT),
    );
    expect(early.status).toBe(409);
    expect(early.html).toMatch(/define it before granting/);
  });
});

describe("the legacy policy builder page", () => {
  it("renders the create tab pre-filled from the resource, in the console shell", async () => {
    const s = authoringSetup();
    const r = await s.defined("/api/orders/{id}", "DELETE", "Cancel an order");
    const answer = await serve(
      s,
      request({ method: "GET", url: `/admin/policy-builder/from-resource?resourceId=${r.id}`, as: ROOT }),
    );
    expect(answer.status).toBe(200);
    expect(answer.x.response.headers.get("content-type")).toMatch(/text\/html/);
    expect(answer.html).toMatch(/^<!doctype html>/);
    expect(answer.html).toContain('<a href="/admin/policy-center" aria-current="page">Policy Center</a>');
    expect(answer.html).toContain('name="target.0.identifier" value="/api/orders/{id}"');
    expect(answer.html).toMatch(/name="target.0.method"[^>]*>.*<option value="DELETE" selected>/);
    expect(answer.html).toContain('name="target.0.source" value="RESOURCE"');
    expect(answer.html).toContain('value="Access to Cancel an order"');
    expect(answer.html).toContain('id="quick-create-form"');
    // One external, deferred page script (progressive: the forms work without it); nothing inline.
    expect(answer.html.match(/<script[^>]*>/g)).toEqual([
      '<script src="/js/platform-policy-center-page.js" defer>',
    ]);
    expect(answer.html).not.toMatch(/<style|\sstyle=/);
  });

  it("a console with its own frame writes the page (status, notice, body, the page script)", async () => {
    const s = authoringSetup();
    const pages: AuthoringPage[] = [];
    const endpoints = new PolicyAuthoringEndpoints({
      ...s.endpointOptions,
      writePage: async (x, page) => {
        pages.push(page);
        x.html(page.status, `<framed>${page.body}</framed>`);
      },
    });
    const x = request({
      method: "GET",
      url: "/admin/policy-builder/from-resource?resourceId=nope",
      as: ROOT,
    });
    await send({ routes: () => authoringRoutesOf(endpoints) }, x);
    expect(x.response.body).toMatch(/^<framed><section class="create-tab"/);
    expect(pages).toMatchObject([
      { status: 404, notice: { kind: "error" }, scripts: ["/js/platform-policy-center-page.js"] },
    ]);
  });

  it("answers 404 with an empty form for an unknown resource and 400 for a malformed id", async () => {
    const s = authoringSetup();
    const get = (q: string) =>
      serve(s, request({ method: "GET", url: `/admin/policy-builder/from-resource${q}`, as: ROOT }));
    expect((await get("?resourceId=nope")).status).toBe(404);
    expect((await get("?resourceId=%3Cx%3E")).status).toBe(400);
    expect((await get("?resourceId=a&resourceId=b")).status).toBe(400);
    const empty = await get("");
    expect(empty.status).toBe(200);
    expect(empty.html).not.toContain('id="quick-create-form"');
  });
});
