import { MethodSecurity } from "./method-security.js";
import { SecurityContextHolder } from "./security-context-holder.js";
import { DecisionAuditQueue } from "../pdp/decision-audit-queue.js";
import { PolicyAdministrationService } from "../policy/policy-administration-service.js";
import type { InjectionToken } from "tsyringe";
import { afterEach, describe, expect, it } from "vitest";
import type { Authentication } from "../../identity/authentication/authentication.js";
import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock, ManualClock } from "../../kernel/clock.js";
import type { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { createPlatform, type Platform } from "../../kernel/platform.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { JsonLogger, Logger } from "../../kernel/logger.js";
import { authzPlugin } from "../authz-plugin.js";
import { caller } from "../pdp/pdp.fixture.js";
import type { PolicyEffect } from "../policy/policy.js";
import { Protectable } from "./protectable.js";

// Entities a hostile or sloppy data layer might hand back.
class Vault {
  readonly calls: string[] = [];
  constructor(private readonly entities: Record<string, unknown>) {}

  @Protectable({ parameterTypes: ["string"], ownerField: "owner" })
  open(key: string): unknown {
    this.calls.push(key);
    return this.entities[key];
  }

  @Protectable({ parameterTypes: ["string", "string"] })
  transfer(account: string, secret: string): string {
    this.calls.push(account);
    return `${account}:${secret.length}`;
  }
}

const VaultToken: InjectionToken<Vault> = Symbol("Vault");
const ADMIN = caller("root", "ROLE_USER", "ROLE_ADMIN");
const BOB = caller("bob", "ROLE_USER");

let platform: Platform | undefined;
afterEach(async () => {
  await platform?.stop();
  platform = undefined;
});

async function vaultWith(entities: Record<string, unknown>) {
  platform = createPlatform({
    plugins: [authzPlugin],
    env: {},
    register: (c) => {
      c.registerInstance(Clock, new ManualClock());
      c.registerInstance(Logger, new JsonLogger(() => {}));
      c.register(Vault, { useValue: new Vault(entities) });
    },
  });
  const p = platform;
  p.resolve(MethodSecurity).register(p.container, VaultToken, Vault);
  await p.start();
  const context = p.resolve(SecurityContextHolder);
  const vault = p.resolve(VaultToken);
  const raw = p.resolve(Vault);
  const as = <T>(who: Authentication | undefined, fn: () => T): T => context.run(who, fn);
  const policy = (name: string, effect: PolicyEffect, identifier: string, expression: string) =>
    p.resolve(PolicyAdministrationService).create(
      {
        name,
        description: "",
        effect,
        priority: 10,
        targets: [{ targetType: "METHOD", targetIdentifier: identifier }],
        rules: [{ name: "r", conditions: [{ expression }] }],
      },
      ADMIN,
    );
  const audited = () => {
    p.resolve(DecisionAuditQueue).drain();
    return (p.resolve(AuditSink) as InMemoryAuditSink)
      .events()
      .filter((e) => e.type === "authz.method.denied");
  };
  return { vault, raw, as, policy, audited };
}

function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}

describe("refusals", () => {
  it("answers AUTHENTICATION_REQUIRED to anonymous callers and ACCESS_DENIED to signed-in ones, with no detail", async () => {
    const { vault, as, policy } = await vaultWith({});
    await policy("admins", "ALLOW", "Vault.transfer(string,string)", "hasRole('ADMIN')");
    const anonymous = errorOf(() => as(undefined, () => vault.transfer("acc-1", "pin-1234")));
    const signedIn = errorOf(() => as(BOB, () => vault.transfer("acc-1", "pin-1234")));
    expect(isPlatformError(anonymous) && anonymous.code).toBe("AUTHENTICATION_REQUIRED");
    expect(isPlatformError(signedIn) && signedIn.code).toBe("ACCESS_DENIED");
    expect(signedIn).toMatchObject({ message: "Access denied", details: undefined });
  });

  it("audits authz.method.denied with the method identifier, never the arguments or the value", async () => {
    const { vault, as, policy, audited } = await vaultWith({ k: { owner: "alice", pin: "4711-secret" } });
    await policy("admins", "ALLOW", "Vault.transfer(string,string)", "hasRole('ADMIN')");
    errorOf(() => as(BOB, () => vault.transfer("acc-secret-77", "pin-secret-99")));
    errorOf(() => as(undefined, () => vault.transfer("acc-secret-77", "pin-secret-99")));
    errorOf(() => as(BOB, () => vault.open("k")));
    const events = audited();
    expect(events.map((e) => [e.principal, e.data?.method])).toEqual([
      ["bob", "Vault.transfer(string,string)"],
      [undefined, "Vault.transfer(string,string)"],
      ["bob", "Vault.open(string)"],
    ]);
    expect(events[0]).toMatchObject({ outcome: "denied", data: { policyName: "admins" } });
    expect(events[2]).toMatchObject({ data: { policyId: null, reason: "not the owner" } });
    const text = JSON.stringify(events);
    for (const secret of ["acc-secret-77", "pin-secret-99", "4711-secret"])
      expect(text).not.toContain(secret);
  });

  it("audits nothing for a granted call", async () => {
    const { vault, as, policy, audited } = await vaultWith({});
    await policy("admins", "ALLOW", "Vault.transfer(string,string)", "hasRole('ADMIN')");
    expect(as(ADMIN, () => vault.transfer("a", "bc"))).toBe("a:2");
    expect(audited()).toEqual([]);
  });
});

describe("ownership cannot be widened or spoofed", () => {
  it("a DENY policy whose condition misses grants non-owners nothing", async () => {
    const { vault, as, policy } = await vaultWith({ k: { owner: "alice" } });
    await policy("no interns", "DENY", "Vault.open(string)", "hasRole('INTERN')");
    const refused = errorOf(() => as(BOB, () => vault.open("k")));
    expect(isPlatformError(refused) && refused.code).toBe("ACCESS_DENIED");
    expect(as(caller("alice", "ROLE_USER"), () => vault.open("k"))).toEqual({ owner: "alice" });
  });

  it("counts only a string or finite number owner (getters count, look-alike values do not)", async () => {
    class Entity {
      get owner(): string {
        return "bob";
      }
    }
    const { vault, as } = await vaultWith({
      getter: new Entity(),
      array: { owner: ["bob"] },
      object: { owner: { toString: () => "bob" } },
      numeric: { owner: 42 },
      infinite: { owner: Number.POSITIVE_INFINITY },
      other: { owner: "bobby" },
      empty: { owner: "" },
    });
    expect(as(BOB, () => vault.open("getter"))).toBeInstanceOf(Entity);
    for (const key of ["array", "object", "other", "infinite", "empty"]) {
      const refused = errorOf(() => as(BOB, () => vault.open(key)));
      expect(isPlatformError(refused) && refused.code, key).toBe("ACCESS_DENIED");
    }
    const numbered: Authentication = { ...BOB, userId: "42" };
    expect(as(numbered, () => vault.open("numeric"))).toEqual({ owner: 42 });
  });

  it("bypasses ownership for the exact ROLE_ADMIN authority only", async () => {
    const { vault, as } = await vaultWith({ k: { owner: "alice" } });
    for (const authority of ["role_admin", "ROLE_ADMINISTRATOR", "ADMIN", " ROLE_ADMIN"]) {
      const refused = errorOf(() => as(caller("mallory", authority), () => vault.open("k")));
      expect(isPlatformError(refused) && refused.code, authority).toBe("ACCESS_DENIED");
    }
    expect(as(ADMIN, () => vault.open("k"))).toEqual({ owner: "alice" });
  });

  it("never hands the refused value to the caller, even through a rejected async path", async () => {
    const { vault, raw, as } = await vaultWith({ k: { owner: "alice", pin: "1234" } });
    const outcome = await as(BOB, async () => vault.open("k")).then(
      () => "resolved",
      (e: unknown) => (isPlatformError(e) ? e.code : "other"),
    );
    expect(outcome).toBe("ACCESS_DENIED");
    expect(raw.calls).toEqual(["k"]); // it ran (ownership needs the value), the value stayed inside
  });
});

describe("the caller is the one of the running call", () => {
  it("sees no caller after the run ended, even from a callback created inside it", async () => {
    const { vault, as, policy } = await vaultWith({});
    await policy("admins", "ALLOW", "Vault.transfer(string,string)", "hasRole('ADMIN')");
    const later = as(ADMIN, () => () => vault.transfer("a", "b"));
    const refused = errorOf(later);
    expect(isPlatformError(refused) && refused.code).toBe("AUTHENTICATION_REQUIRED");
  });
});
