import { describe, expect, it } from "vitest";
import { authzPlugin } from "../authz/authz-plugin.js";
import { AuthzAdminRouteSource } from "../authz/admin/authz-admin-api.js";
import { createPlatform } from "../kernel/platform.js";
import { ADAPTIVE_PROPERTIES } from "../mfa/adaptive/risk-thresholds.js";
import { resourcesPlugin } from "../resources/resources-plugin.js";
import { ConsoleSection } from "../web/console/console-page.js";
import { policyCenterPlugin } from "./policy-center-plugin.js";

const PROPS = { id: "props", properties: ADAPTIVE_PROPERTIES };

describe("policyCenterPlugin", () => {
  it("adds its console section and its routes to the authorization admin API", () => {
    const platform = createPlatform({
      plugins: [PROPS, authzPlugin, resourcesPlugin, policyCenterPlugin],
      env: {},
    });
    expect(platform.container.resolveAll(ConsoleSection)).toEqual([
      { id: "policy-center", label: "Policy Center", href: "/admin/policy-center", order: 10 },
    ]);
    const source = platform.container.resolveAll(AuthzAdminRouteSource).find((s) => s.id === "policy-center");
    const routes = source?.routes(platform.container) ?? [];
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.every((r) => r.access === "admin")).toBe(true);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        "GET /admin/policy-center",
        "GET /admin/policy-center/policies/*",
        "POST /admin/policy-center/policies/*/edit",
        "POST /admin/policy-center/resources/*/define",
        "GET /admin/workbench/resources",
        "POST /admin/workbench/resources/*/restore",
      ]),
    );
  });

  it.each([
    ["authzPlugin", [policyCenterPlugin]],
    ["resourcesPlugin", [PROPS, authzPlugin, policyCenterPlugin]],
    ["resourcesPlugin", [PROPS, authzPlugin, policyCenterPlugin, resourcesPlugin]],
  ])("stops with CONFIGURATION_INVALID naming %s when it is not listed before", (missing, plugins) => {
    expect(() => createPlatform({ plugins, env: {} })).toThrow(
      expect.objectContaining({ code: "CONFIGURATION_INVALID", message: expect.stringContaining(missing) }),
    );
  });
});
