import { describe, expect, it } from "vitest";
import { urlResource } from "../resources/resources.fixture.js";
import { policyCenterSetup } from "./policy-center.fixture.js";

const PAGE = "/admin/policy-center";

async function seeded() {
  const s = policyCenterSetup();
  const orders = await s.seed(
    urlResource("/api/orders", "GET", { friendlyName: "List orders", serviceOwner: "orders" }),
  );
  const place = await s.seed(
    urlResource("/api/orders", "POST", { friendlyName: "Place an order", serviceOwner: "orders" }),
  );
  const users = await s.seed(
    urlResource("/api/users", "GET", {
      friendlyName: "List users",
      serviceOwner: "accounts",
      description: "Reads every account",
    }),
  );
  const excluded = await s.seed(
    urlResource("/api/health", "GET", { friendlyName: "Health", status: "EXCLUDED" }),
  );
  return { ...s, orders, place, users, excluded };
}

/** The resource ids the page lists, in order. */
function listed(html: string): string[] {
  return [...html.matchAll(/data-resource-id="([^"]+)"/g)].map((m) => m[1]!);
}

describe("Policy Center: the resources tab", () => {
  it("is the default tab and lists every resource with the moves its status allows", async () => {
    const s = await seeded();
    const page = await s.admin({ url: PAGE });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(listed(page.html).sort()).toEqual([s.orders.id, s.place.id, s.users.id, s.excluded.id].sort());
    expect(page.html).toContain(
      '<a href="/admin/policy-center?tab=resources" aria-current="page">Resources</a>',
    );
    expect(page.html).toContain(`action="/admin/policy-center/resources/${s.orders.id}/define"`);
    expect(page.html).toContain('name="friendlyName" required maxlength="200" value="List orders"');
    expect(page.html).toContain(`action="/admin/policy-center/resources/${s.excluded.id}/restore"`);
    expect(page.html).not.toContain(`/resources/${s.excluded.id}/define`);
  });

  it.each([
    ["status", "?status=EXCLUDED", ["excluded"]],
    ["service owner", "?serviceOwner=accounts", ["users"]],
    ["keyword over the name", "?q=place", ["place"]],
    ["keyword over the description", "?q=every+account", ["users"]],
    ["keyword over the identifier", "?q=/api/orders", ["orders", "place"]],
    ["type", "?type=METHOD", []],
    [
      "blank fields of the GET form",
      "?tab=resources&status=&type=&serviceOwner=&q=",
      ["orders", "place", "users", "excluded"],
    ],
  ] as const)("filters by %s", async (_, query, names) => {
    const s = await seeded();
    const page = await s.admin({ url: `${PAGE}${query}` });
    expect(page.status).toBe(200);
    expect(listed(page.html).sort()).toEqual(names.map((n) => s[n].id).sort());
  });

  it("pages like the resources API: limit and offset, with previous and next links keeping the filter", async () => {
    const s = await seeded();
    const first = await s.admin({ url: `${PAGE}?q=api&limit=2` });
    expect(listed(first.html)).toHaveLength(2);
    expect(first.html).toContain(
      'rel="next" href="/admin/policy-center?tab=resources&#38;q=api&#38;offset=2&#38;limit=2"',
    );
    const second = await s.admin({ url: `${PAGE}?q=api&limit=2&offset=2` });
    expect(listed(second.html)).toHaveLength(2);
    expect(second.html).toContain(
      'rel="prev" href="/admin/policy-center?tab=resources&#38;q=api&#38;limit=2"',
    );
    expect(second.html).not.toContain('rel="next"');
  });

  it("defines with the edited name, redirects back (303) to the same filter with a notice, and audits", async () => {
    const s = await seeded();
    const answer = await s.admin({
      url: `${PAGE}/resources/${s.orders.id}/define`,
      form: { friendlyName: "  Read orders ", version: "1", back: "status=NEEDS_DEFINITION&q=orders" },
    });
    expect([answer.status, answer.location]).toEqual([
      303,
      "/admin/policy-center?tab=resources&status=NEEDS_DEFINITION&q=orders&notice=defined",
    ]);
    expect(await s.repository.findById(s.orders.id)).toMatchObject({
      status: "PERMISSION_CREATED",
      permission: { name: "Read orders", createdBy: "root" },
    });
    expect(s.audited().map((e) => [e.type, e.principal])).toEqual([["resource.defined", "root"]]);
    const back = await s.admin({ url: answer.location! });
    expect(back.html).toContain(
      '<p class="notice ok" role="status">The resource is defined as a permission.</p>',
    );
  });

  it("excludes and restores, each a 303 back with a notice", async () => {
    const s = await seeded();
    const excluded = await s.admin({
      url: `${PAGE}/resources/${s.place.id}/exclude`,
      form: { version: "1" },
    });
    expect([excluded.status, excluded.location]).toEqual([
      303,
      "/admin/policy-center?tab=resources&notice=excluded",
    ]);
    expect(await s.status(s.place.id)).toBe("EXCLUDED");
    const restored = await s.admin({
      url: `${PAGE}/resources/${s.place.id}/restore`,
      form: { version: "2" },
    });
    expect([restored.status, restored.location]).toEqual([
      303,
      "/admin/policy-center?tab=resources&notice=restored",
    ]);
    expect(await s.status(s.place.id)).toBe("NEEDS_DEFINITION");
    expect(s.audited().map((e) => e.type)).toEqual(["resource.excluded", "resource.restored"]);
  });

  it("answers a stale form or a move the status does not allow with the tab at 409 and the error's notice", async () => {
    const s = await seeded();
    const stale = await s.admin({ url: `${PAGE}/resources/${s.orders.id}/exclude`, form: { version: "7" } });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('class="notice error" role="alert"');
    expect(stale.html).toContain("nothing was saved");
    const illegal = await s.admin({
      url: `${PAGE}/resources/${s.excluded.id}/exclude`,
      form: { version: "1" },
    });
    expect(illegal.status).toBe(409);
    expect(illegal.html).toContain("Cannot exclude a resource whose status is EXCLUDED");
    expect(await s.status(s.orders.id)).toBe("NEEDS_DEFINITION");
    expect(s.audited()).toEqual([]);
  });

  it("renders markup in a resource's (AI-proposed) name and description as text, in the table and the form", async () => {
    const s = policyCenterSetup();
    const hostile = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';
    await s.seed(
      urlResource("/api/x", "GET", {
        friendlyName: hostile,
        description: `<b>${hostile}</b>`,
        serviceOwner: "<i>o</i>",
      }),
    );
    const page = await s.admin({ url: PAGE });
    expect(page.html).not.toContain("<script>alert");
    expect(page.html).not.toContain("<img");
    expect(page.html).not.toContain("<b>");
    expect(page.html).not.toContain("<i>o");
    expect(page.html).toContain(
      "&#60;script&#62;alert(1)&#60;/script&#62;&#34;&#62;&#60;img src=x onerror=alert(2)&#62;",
    );
    // No element carries a script, a style or a handler (attribute values blanked first: they hold text).
    expect(page.html.replace(/"[^"]*"/g, '""')).not.toMatch(/<script|<[^>]*\s(style|on[a-z]+)=/i);
  });
});

describe("Policy Center: the legacy workbench routes", () => {
  it("GET /admin/workbench/resources answers 302 to the resources tab with the same filter", async () => {
    const s = await seeded();
    const answer = await s.admin({ url: "/admin/workbench/resources?status=EXCLUDED&q=health" });
    expect([answer.status, answer.location]).toEqual([
      302,
      "/admin/policy-center?tab=resources&status=EXCLUDED&q=health",
    ]);
    const bad = await s.admin({ url: "/admin/workbench/resources?status=GONE" });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain("notice error");
  });

  it("define, exclude and restore post to the workbench too, redirecting back to the resources tab", async () => {
    const s = await seeded();
    const defined = await s.admin({
      url: `/admin/workbench/resources/${s.orders.id}/define`,
      form: { friendlyName: "Read orders", version: "1" },
    });
    expect([defined.status, defined.location]).toEqual([
      303,
      "/admin/policy-center?tab=resources&notice=defined",
    ]);
    const excluded = await s.admin({
      url: `/admin/workbench/resources/${s.place.id}/exclude`,
      form: { version: "1" },
    });
    expect(excluded.status).toBe(303);
    const restored = await s.admin({
      url: `/admin/workbench/resources/${s.place.id}/restore`,
      form: { version: "2" },
    });
    expect(restored.status).toBe(303);
    expect([await s.status(s.orders.id), await s.status(s.place.id)]).toEqual([
      "PERMISSION_CREATED",
      "NEEDS_DEFINITION",
    ]);
  });
});
