import { describe, expect, it } from "vitest";
import { securityRegistry as registryOf } from "../../identity/dsl/security-registry.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { MfaOptions } from "./mfa-options.js";
import { mfaRegistryMethod } from "./mfa-dsl.js";

/** A registry with `.mfa()`, as on a platform with mfaPlugin. */
const securityRegistry = () => registryOf([mfaRegistryMethod]);

function codeAndMessage(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    if (isPlatformError(e)) return `${e.code}: ${e.message}`;
    throw e;
  }
  return "no error";
}

describe("the registry DSL's .mfa(), contributed by the MFA module", () => {
  it("is no method of a registry without the MFA contribution: calling it names mfaPlugin", () => {
    expect(codeAndMessage(() => registryOf().mfa())).toMatch(
      /^CONFIGURATION_INVALID: \.mfa\(\) is not in the registry DSL of this platform: .*add mfaPlugin/,
    );
  });

  it("gives .mfa() the default order 200", () => {
    expect(new MfaOptions().orderValue).toBe(200);
  });

  it("builds an MFA flow as its own chain, typeName mfa, mfa_2 and mfa_<name>", () => {
    const flow = (r: ReturnType<typeof registryOf>, name?: string) =>
      r.mfa((m) => {
        m.primaryAuthentication((p) => p.formLogin()).ott();
        if (name) m.name(name);
      });
    const registry = securityRegistry();
    flow(registry).session();
    flow(registry).session();
    flow(registry, "admin").oauth2();
    const config = registry.form().session().build();
    expect(config.chains.map((c) => [c.id, c.kind, c.state])).toEqual([
      ["mfa", "mfa", "session"],
      ["mfa_2", "mfa", "session"],
      ["mfa_admin", "mfa", "oauth2"],
      ["form", "form", "session"],
    ]);
  });

  it("throws an unsupported-operation error for .form()/.rest() on .mfa()", () => {
    expect(codeAndMessage(() => new MfaOptions().form())).toMatch(
      /^UNSUPPORTED_OPERATION: .*primaryAuthentication/,
    );
    expect(codeAndMessage(() => new MfaOptions().rest())).toMatch(/^UNSUPPORTED_OPERATION: /);
  });

  it("gives MFA factors step orders 1, 2 in registration order and allows one primary only", () => {
    const mfa = new MfaOptions()
      .primaryAuthentication((p) => p.formLogin())
      .ott()
      .passkey();
    expect(mfa.factors.map((f) => [f.type, f.stepOrder])).toEqual([
      ["ott", 1],
      ["passkey", 2],
    ]);
    expect(codeAndMessage(() => mfa.primaryAuthentication((p) => p.restLogin()))).toContain("exactly one");
  });

  it("refuses two flows of the same name", () => {
    const registry = securityRegistry();
    const named = (m: MfaOptions) =>
      m
        .primaryAuthentication((p) => p.formLogin())
        .ott()
        .name("admin");
    registry.mfa(named).session();
    registry.mfa(named).session();
    expect(codeAndMessage(() => registry.build())).toMatch(/^CONFIGURATION_INVALID: .*named mfa_admin/);
  });

  it("runs the MFA build rules at build()", () => {
    const registry = securityRegistry();
    registry.mfa((m) => m.primaryAuthentication((p) => p.formLogin())).session();
    expect(codeAndMessage(() => registry.build())).toMatch(/at least one secondary factor/);
  });
});
