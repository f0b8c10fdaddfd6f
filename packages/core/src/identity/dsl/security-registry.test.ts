import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { FormLoginOptions, RestLoginOptions } from "./form-login-options.js";
import { securityRegistry } from "./security-registry.js";

function codeAndMessage(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    if (isPlatformError(e)) return `${e.code}: ${e.message}`;
    throw e;
  }
  return "no error";
}

describe("the registry DSL", () => {
  it("builds one chain definition per method, in registration order, with its state", () => {
    const config = securityRegistry()
      .form((f) => f.loginPage("/signin"))
      .session()
      .rest()
      .oauth2()
      .build();
    expect(config.chains.map((c) => [c.id, c.kind, c.state, c.options.orderValue, c.index])).toEqual([
      ["form", "form", "session", 100, 0],
      ["rest", "rest", "oauth2", 200, 1],
    ]);
  });

  it("gives each method its default order and lets order() change it", () => {
    expect(new FormLoginOptions().orderValue).toBe(100);
    expect(new RestLoginOptions().orderValue).toBe(200);
    const config = securityRegistry()
      .rest((r) => r.order(5))
      .oauth2()
      .build();
    expect(config.chains[0]!.options.orderValue).toBe(5);
  });

  it("numbers repeated methods: form, form_2", () => {
    const config = securityRegistry().form().session().form().session().build();
    expect(config.chains.map((c) => c.id)).toEqual(["form", "form_2"]);
  });

  it("exposes the OTT, passkey and MFA option builders with their defaults", () => {
    let ottOrder = 0;
    let rpName = "";
    securityRegistry()
      .ott((o) => {
        ottOrder = o.orderValue;
      })
      .session();
    securityRegistry()
      .passkey((p) => {
        rpName = p.rpNameValue;
        p.allowedOrigins("http://localhost:8080", new Set(["https://example.com"]));
        expect([...p.allowedOriginsValue]).toEqual(["http://localhost:8080", "https://example.com"]);
      })
      .session();
    expect(ottOrder).toBe(300);
    expect(rpName).toBe("platform-identity");
  });

  it("refuses a build with no method", () => {
    expect(codeAndMessage(() => securityRegistry().build())).toContain("No authentication method registered");
  });

  it("refuses a method without state management, whichever way it is reached", () => {
    const registry = securityRegistry();
    registry.form();
    expect(codeAndMessage(() => registry.build())).toContain(
      ".form() must be followed by .session() or .oauth2()",
    );
    const other = securityRegistry();
    other.rest();
    expect(codeAndMessage(() => other.form())).toContain(
      ".rest() must be followed by .session() or .oauth2()",
    );
  });

  it("refuses choosing the state twice and building twice", () => {
    const registry = securityRegistry();
    const step = registry.form();
    step.session();
    expect(codeAndMessage(() => step.oauth2())).toContain("already chosen");
    registry.build();
    expect(codeAndMessage(() => registry.build())).toContain("already called");
    expect(codeAndMessage(() => registry.rest())).toContain("already built");
  });

  it("refuses URLs that are not local paths and bad parameter names", () => {
    expect(codeAndMessage(() => new FormLoginOptions().loginPage("https://evil.example/login"))).toMatch(
      /CONFIGURATION_INVALID.*loginPage/,
    );
    expect(codeAndMessage(() => new FormLoginOptions().defaultSuccessUrl("//evil.example"))).toMatch(
      /defaultSuccessUrl/,
    );
    expect(codeAndMessage(() => new FormLoginOptions().usernameParameter("a b"))).toMatch(
      /usernameParameter/,
    );
    expect(codeAndMessage(() => new FormLoginOptions().order(1.5))).toMatch(/order must be an integer/);
  });

  it("keeps every rawHttp and rawFormLogin customizer (cumulative)", () => {
    const form = new FormLoginOptions();
    form.rawHttp(() => {}).rawHttp(() => {});
    form.rawFormLogin(() => {}).rawFormLogin(() => {});
    expect(form.rawHttpCustomizers).toHaveLength(2);
    expect(form.rawFormLoginCustomizers).toHaveLength(2);
  });
});
