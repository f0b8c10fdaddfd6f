import { describe, expect, it, vi } from "vitest";
import type { Authentication } from "../../identity/authentication/authentication.js";
import { InMemoryPasskeyCredentialRepository } from "../../identity/passkey/in-memory-passkey-credential-repository.js";
import { ManualClock } from "../../kernel/clock.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { FactorType } from "../factor-type.js";
import {
  type DefaultMfaPolicyProviderOptions,
  DefaultMfaPolicyProvider,
  availableFactorsFor,
} from "./default-mfa-policy-provider.js";
import type { MfaPolicyContext } from "./mfa-policy-context.js";

function context(
  authorities: readonly string[],
  flowFactors: readonly FactorType[] = ["OTT", "PASSKEY"],
  requiredFactors = 1,
): MfaPolicyContext {
  const primary: Authentication = {
    userId: "u1",
    username: "alice",
    authorities,
    method: "form",
    authenticatedAt: 0,
    factors: [{ type: "pwd", at: 0 }],
  };
  return {
    request: {
      remoteAddress: "127.0.0.1",
      deviceId: undefined,
      userAgent: undefined,
      path: "/login",
      method: "POST",
    },
    user: { userId: "u1", username: "alice", authorities },
    primary,
    flow: { typeName: "mfa", factors: flowFactors, requiredFactors },
  };
}

function provider(overrides: Partial<DefaultMfaPolicyProviderOptions> = {}): DefaultMfaPolicyProvider {
  return new DefaultMfaPolicyProvider({
    requiredAuthorities: ["ROLE_ADMIN", "ROLE_OPS"],
    allowedFactors: ["OTT", "PASSKEY"],
    availableFactors: async () => ["OTT", "PASSKEY"],
    ...overrides,
  });
}

describe("DefaultMfaPolicyProvider", () => {
  it("challenges a user holding a required authority, naming it", async () => {
    const decision = await provider().evaluateInitialMfaRequirement(context(["ROLE_USER", "ROLE_OPS"]));
    expect(decision).toEqual({
      type: "CHALLENGED",
      reason: "role ROLE_OPS requires MFA",
      factors: ["OTT", "PASSKEY"],
    });
  });

  it("requires nothing of a user without a required authority, without asking for factors", async () => {
    const availableFactors = vi.fn(async (): Promise<FactorType[]> => ["OTT"]);
    const decision = await provider({ availableFactors }).evaluateInitialMfaRequirement(
      context(["ROLE_USER"]),
    );
    expect(decision.type).toBe("NO_MFA_REQUIRED");
    expect(availableFactors).not.toHaveBeenCalled();
  });

  it("matches authorities exactly", async () => {
    const decision = await provider().evaluateInitialMfaRequirement(
      context(["role_admin", "ROLE_ADMINISTRATOR"]),
    );
    expect(decision.type).toBe("NO_MFA_REQUIRED");
  });

  it("exempts a user holding an exempt authority even with a required one", async () => {
    const decision = await provider({
      exemptAuthorities: ["ROLE_BREAK_GLASS"],
    }).evaluateInitialMfaRequirement(context(["ROLE_ADMIN", "ROLE_BREAK_GLASS"]));
    expect(decision).toEqual({ type: "NO_MFA_REQUIRED", reason: "role ROLE_BREAK_GLASS is exempt from MFA" });
  });

  it("narrows factors to allowed ∩ offered by the flow ∩ available to the user, in the flow's order", async () => {
    const ctx = context(["ROLE_ADMIN"], ["PASSKEY", "OTT"]);
    expect((await provider().evaluateInitialMfaRequirement(ctx)).factors).toEqual(["PASSKEY", "OTT"]);
    expect(
      (await provider({ availableFactors: async () => ["OTT"] }).evaluateInitialMfaRequirement(ctx)).factors,
    ).toEqual(["OTT"]);
    expect(
      (await provider({ allowedFactors: ["PASSKEY"] }).evaluateInitialMfaRequirement(ctx)).factors,
    ).toEqual(["PASSKEY"]);
    expect(
      (await provider().evaluateInitialMfaRequirement(context(["ROLE_ADMIN"], ["OTT"]))).factors,
    ).toEqual(["OTT"]);
  });

  it("blocks a user who must do MFA but has no usable factor", async () => {
    const noPasskey = provider({ allowedFactors: ["PASSKEY"], availableFactors: async () => ["OTT"] });
    expect(await noPasskey.evaluateInitialMfaRequirement(context(["ROLE_ADMIN"]))).toEqual({
      type: "BLOCKED",
      reason: "no usable factor",
    });
    const nothing = provider({ availableFactors: async () => [] });
    expect((await nothing.evaluateInitialMfaRequirement(context(["ROLE_ADMIN"]))).type).toBe("BLOCKED");
  });

  it("blocks when fewer factors are usable than the flow requires", async () => {
    const decision = await provider({ availableFactors: async () => ["OTT"] }).evaluateInitialMfaRequirement(
      context(["ROLE_ADMIN"], ["OTT", "PASSKEY"], 2),
    );
    expect(decision).toEqual({ type: "BLOCKED", reason: "not enough usable factors: 1 of 2 required" });
    const both = await provider().evaluateInitialMfaRequirement(
      context(["ROLE_ADMIN"], ["OTT", "PASSKEY"], 2),
    );
    expect(both.type).toBe("CHALLENGED");
  });

  it("lets an error of availableFactors propagate (fail closed)", async () => {
    const failing = provider({
      availableFactors: async () => {
        throw new Error("db down");
      },
    });
    await expect(failing.evaluateInitialMfaRequirement(context(["ROLE_ADMIN"]))).rejects.toThrow("db down");
  });

  it("refuses an empty or unknown allowedFactors list", () => {
    for (const allowedFactors of [[], ["SMS"]] as unknown as FactorType[][]) {
      let code = "accepted";
      try {
        provider({ allowedFactors });
      } catch (error) {
        code = isPlatformError(error) ? error.code : String(error);
      }
      expect(code).toBe("CONFIGURATION_INVALID");
    }
  });
});

describe("availableFactorsFor", () => {
  it("offers OTT always and PASSKEY once the user has a credential", async () => {
    const passkeys = new InMemoryPasskeyCredentialRepository({ clock: new ManualClock() });
    const available = availableFactorsFor({ passkeys });
    expect(await available("u1")).toEqual(["OTT"]);
    await passkeys.create({
      id: "cred-1",
      userId: "u1",
      userHandle: "h1",
      publicKey: "pk",
      counter: 0,
      transports: [],
      deviceType: "singleDevice",
      backedUp: false,
      aaguid: "00000000-0000-0000-0000-000000000000",
      label: "laptop",
    });
    expect(await available("u1")).toEqual(["OTT", "PASSKEY"]);
    expect(await available("u2")).toEqual(["OTT"]);
  });
});
