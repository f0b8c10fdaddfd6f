import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { FactorCatalog } from "./factor-catalog.js";
import type { Factor } from "./factor.js";

/** A generic code factor whose `enrolled` answers from a set of user ids. */
function member(type: string, enrolledUsers: readonly string[] = [], extra: Partial<Factor> = {}): Factor {
  return {
    type,
    kind: "code",
    label: type,
    challengeState: "FACTOR_CHALLENGE",
    proves: "otp",
    lockoutWeight: 1,
    urls: {
      verify: `/login/mfa-${type.toLowerCase()}`,
      challengePage: `/mfa/challenge/${type.toLowerCase()}`,
    },
    enrolled: async (userId) => enrolledUsers.includes(userId),
    verify: async () => false,
    ...extra,
  };
}

function refusal(build: () => unknown): { code: string | undefined; message: string } {
  try {
    build();
  } catch (error) {
    return { code: isPlatformError(error) ? error.code : undefined, message: (error as Error).message };
  }
  throw new Error("the catalog was built");
}

describe("FactorCatalog: configuration errors stop the start", () => {
  it("refuses a type registered twice", () => {
    expect(refusal(() => new FactorCatalog([member("TOTP"), member("TOTP")]))).toEqual({
      code: "CONFIGURATION_INVALID",
      message: "Factor TOTP is registered twice",
    });
  });

  it.each(["totp", "1TOTP", "TO-TP", "", "A".repeat(33), "TOTP\n"])("refuses the type %j", (type) => {
    expect(refusal(() => new FactorCatalog([member(type)])).code).toBe("CONFIGURATION_INVALID");
  });

  it.each([0, -1, 1.5, 11, Number.NaN])("refuses a lockout weight of %s", (lockoutWeight) => {
    expect(refusal(() => new FactorCatalog([member("TOTP", [], { lockoutWeight })])).message).toContain(
      "lockoutWeight",
    );
  });

  it("refuses a generic factor without urls or verify", () => {
    expect(refusal(() => new FactorCatalog([member("TOTP", [], { urls: undefined })])).message).toContain(
      "needs urls and verify",
    );
    expect(refusal(() => new FactorCatalog([member("TOTP", [], { verify: undefined })])).message).toContain(
      "needs urls and verify",
    );
  });

  it("refuses an offered type nobody registered, naming it", () => {
    expect(refusal(() => new FactorCatalog([member("TOTP")], ["TOTP", "SMS"])).message).toBe(
      "Offered factors nobody registered: SMS",
    );
  });
});

describe("FactorCatalog: the offer", () => {
  const members = [member("TOTP", ["u1"]), member("RECOVERY", ["u1", "u2"]), member("SMS", ["u2"])];

  it("offers every registered factor, in registration order, when no list is given", () => {
    expect(new FactorCatalog(members).types()).toEqual(["TOTP", "RECOVERY", "SMS"]);
  });

  it("narrows the offer to the listed types (platform.auth.mfa.factors), keeping registration order", () => {
    const catalog = new FactorCatalog(members, ["SMS", "TOTP"]);
    expect(catalog.types()).toEqual(["TOTP", "SMS"]);
    expect(catalog.get("RECOVERY")).toBeUndefined();
    expect(() => catalog.parse("RECOVERY")).toThrow();
    expect(catalog.parse("SMS")).toBe("SMS");
  });

  it("lists only the offered factors a user is enrolled in", async () => {
    const catalog = new FactorCatalog(members, ["TOTP", "SMS"]);
    expect(await catalog.enrolledFor("u1")).toEqual(["TOTP"]);
    expect(await catalog.enrolledFor("u2")).toEqual(["SMS"]);
    expect(await catalog.enrolledFor("nobody")).toEqual([]);
  });
});
