import { describe, expect, it } from "vitest";
import { manual } from "../authz/policy/policy.fixture.js";
import { urlResource } from "../resources/resources.fixture.js";
import { BOB, policyCenterSetup, ROOT } from "./policy-center.fixture.js";

const PAGE = "/admin/policy-center";

async function seeded() {
  const s = policyCenterSetup();
  const r = await s.seed(urlResource("/api/orders", "GET"));
  const p = await s.pap.create(manual(), ROOT);
  const before = s.audit.events().length;
  const unchanged = async () => {
    expect(await s.repository.findAll()).toEqual([r]);
    expect(await s.policies.findAll()).toEqual([p]);
    expect(
      s.audit
        .events()
        .slice(before)
        .filter((e) => e.outcome === "success"),
    ).toEqual([]);
  };
  return { ...s, r, p, unchanged };
}

function everyRoute(r: { id: string }, p: { id: string }): [string, string][] {
  return [
    ["GET", PAGE],
    ["GET", `${PAGE}?tab=policies`],
    ["GET", `${PAGE}/policies/${p.id}`],
    ["GET", "/admin/workbench/resources"],
    ...["define", "exclude", "restore"].flatMap((a): [string, string][] => [
      ["POST", `${PAGE}/resources/${r.id}/${a}`],
      ["POST", `/admin/workbench/resources/${r.id}/${a}`],
    ]),
    ...["edit", "activate", "deactivate", "approve", "reject", "delete"].map((a): [string, string] => [
      "POST",
      `${PAGE}/policies/${p.id}/${a}`,
    ]),
  ];
}

describe("Policy Center: callers", () => {
  it("answers anonymous 401 and a non-admin 403 on every route, before reading the body, changing nothing", async () => {
    const s = await seeded();
    for (const [method, url] of everyRoute(s.r, s.p)) {
      const raw = method === "POST" ? "version=1&friendlyName=x" : undefined;
      const anonymous = await s.call({ method, url, ...(raw ? { raw } : {}) });
      expect([anonymous.status, anonymous.code], url).toEqual([401, "AUTHENTICATION_REQUIRED"]);
      const user = await s.call({ method, url, raw: "%%%not a form", contentType: "text/plain", as: BOB });
      expect([user.status, user.code], url).toEqual([403, "ACCESS_DENIED"]);
      expect(user.headers.get("cache-control")).toBe("no-store");
    }
    expect(s.audit.events().filter((e) => e.type.endsWith("access-denied")).length).toBe(
      everyRoute(s.r, s.p).length,
    );
    await s.unchanged();
  });

  it("answers other methods 405 with Allow", async () => {
    const s = await seeded();
    const put = await s.admin({ method: "PUT", url: PAGE });
    expect([put.status, put.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
    const get = await s.admin({ method: "GET", url: `${PAGE}/resources/${s.r.id}/define` });
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
  });
});

describe("Policy Center: malformed, missing, oversized and hostile input answer 4xx, never 500, changing nothing", () => {
  it.each([
    ["an unknown parameter", "?sort=name"],
    ["a repeated parameter", "?status=EXCLUDED&status=NEEDS_DEFINITION"],
    ["an unknown tab", "?tab=admin"],
    ["an unknown status", "?status=GONE"],
    ["an unknown notice code", "?notice=%3Cscript%3E"],
    ["an oversized keyword", `?q=${"q".repeat(201)}`],
    ["a negative offset", "?offset=-1"],
    ["a limit above the maximum", "?limit=201"],
    ["a non-numeric limit", "?limit=ten"],
    ["a malformed resource id", "?tab=create&resourceId=a.b"],
  ])("the page with %s: 400 page", async (_, query) => {
    const s = await seeded();
    const answer = await s.admin({ url: `${PAGE}${query}` });
    expect([answer.status, answer.headers.get("content-type")]).toEqual([400, "text/html; charset=utf-8"]);
    expect(answer.html).toContain('class="notice error"');
    expect(answer.html).not.toContain("<script>");
  });

  it("reads regex and operator text in the keyword as plain text", async () => {
    const s = await seeded();
    for (const q of ["(a+)+$", ".*", '{"$gt":""}', "[a-z]"]) {
      const answer = await s.admin({ url: `${PAGE}?q=${encodeURIComponent(q)}` });
      expect(answer.status).toBe(200);
      expect(answer.html).toContain("No resources match.");
    }
  });

  const resourcePost = (
    s: Awaited<ReturnType<typeof seeded>>,
    action: string,
    raw: string,
    contentType?: string,
  ) =>
    s.admin({ url: `${PAGE}/resources/${s.r.id}/${action}`, raw, ...(contentType ? { contentType } : {}) });

  it.each([
    ["no version", "friendlyName=Read"],
    ["no name", "version=1"],
    ["an empty name", "friendlyName=%20%20&version=1"],
    ["an oversized name", `friendlyName=${"n".repeat(201)}&version=1`],
    ["a control character", "friendlyName=a%00b&version=1"],
    ["a line break", "friendlyName=a%0Aforged&version=1"],
    ["a bidi override", "friendlyName=%E2%80%AEevil&version=1"],
    ["a fractional version", "friendlyName=a&version=1.5"],
    ["a huge version", `friendlyName=a&version=${"9".repeat(30)}`],
    ["an unknown field", "friendlyName=a&version=1&status=EXCLUDED"],
    ["a prototype key", "friendlyName=a&version=1&__proto__=x"],
    ["a hostile back", "friendlyName=a&version=1&back=https://evil.example/"],
    ["an oversized back", `friendlyName=a&version=1&back=${"q=".padEnd(1_100, "x")}`],
  ])("define with %s: 400 page", async (_, raw) => {
    const s = await seeded();
    const answer = await resourcePost(s, "define", raw);
    expect(answer.status).toBe(400);
    expect(answer.html).toContain('class="notice error"');
    await s.unchanged();
  });

  it("refuses a JSON body (415) and a malformed id (400), and answers an unknown id with 404", async () => {
    const s = await seeded();
    expect((await resourcePost(s, "exclude", '{"version":1}', "application/json")).code).toBe(
      "UNSUPPORTED_MEDIA_TYPE",
    );
    for (const id of ["a.b", "x".repeat(129), "$where"]) {
      const answer = await s.admin({
        url: `${PAGE}/resources/${encodeURIComponent(id)}/exclude`,
        form: { version: "1" },
      });
      expect(answer.status, id).toBe(400);
    }
    const unknown = await s.admin({ url: `${PAGE}/resources/nope/exclude`, form: { version: "1" } });
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain("No such resource");
    await s.unchanged();
  });

  it.each([
    ["no version", { name: "x" }],
    [
      "a wrong effect",
      { version: "1", name: "x", description: "", priority: "1", effect: "MAYBE", targets: "URL GET /a" },
    ],
    [
      "oversized targets",
      {
        version: "1",
        name: "x",
        description: "",
        priority: "1",
        effect: "ALLOW",
        targets: "x".repeat(64_001),
      },
    ],
    [
      "too many targets",
      {
        version: "1",
        name: "x",
        description: "",
        priority: "1",
        effect: "ALLOW",
        targets: Array.from({ length: 51 }, (_, i) => `URL GET /a${i}`).join("\n"),
      },
    ],
    [
      "a hostile path pattern",
      {
        version: "1",
        name: "x",
        description: "",
        priority: "1",
        effect: "ALLOW",
        targets: "URL GET ../../etc/passwd",
      },
    ],
    [
      "an unknown field",
      {
        version: "1",
        name: "x",
        description: "",
        priority: "1",
        effect: "ALLOW",
        targets: "URL GET /a",
        isActive: "false",
      },
    ],
    ["a reject reason too long", { reason: "r".repeat(1_001) }],
  ])("a policy post with %s: 400 page", async (what, form) => {
    const s = await seeded();
    const action = what.startsWith("a reject") ? "reject" : "edit";
    const answer = await s.admin({ url: `${PAGE}/policies/${s.p.id}/${action}`, form });
    expect(answer.status).toBe(400);
    expect(answer.html).toContain('class="notice error"');
    await s.unchanged();
  });

  it("refuses fields on the moves that take none", async () => {
    const s = await seeded();
    const answer = await s.admin({ url: `${PAGE}/policies/${s.p.id}/deactivate`, form: { force: "true" } });
    expect(answer.status).toBe(400);
    await s.unchanged();
  });
});
