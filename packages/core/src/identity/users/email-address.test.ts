import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import {
  checkEmailAddress,
  emailAddressKey,
  emailAddressProblem,
  MAX_EMAIL_LENGTH,
} from "./email-address.js";

describe("emailAddressProblem", () => {
  it.each([
    "alice@example.com",
    "Alice.Smith+tag@Example.COM",
    "o'brien@sub.example.co.uk",
    "x@xn--bcher-kva.example",
    "!#$%&'*+-/=?^_`{|}~@a-b.example",
    `${"a".repeat(64)}@example.com`,
  ])("accepts %s", (address) => {
    expect(emailAddressProblem(address)).toBeUndefined();
  });

  it.each([
    ["", "must not be empty"],
    ["   ", "must not be empty"],
    ["alice", "exactly one @"],
    ["a@b@example.com", "exactly one @"],
    ["@example.com", "before the @"],
    [`${"a".repeat(65)}@example.com`, "before the @"],
    [".alice@example.com", "dot"],
    ["alice.@example.com", "dot"],
    ["al..ice@example.com", "dot"],
    ['"alice"@example.com', "only letters"],
    ["al ice@example.com", "only letters"],
    ["alice@localhost", "with a dot"],
    ["alice@example..com", "labels of 1 to 63"],
    ["alice@-example.com", "start or end"],
    ["alice@example-.com", "start or end"],
    ["alice@exa_mple.com", "only letters, digits and -"],
    ["alice@127.0.0.1", "not a number"],
    ["alice@[127.0.0.1]", "only letters, digits and -"],
    [`alice@${"a".repeat(64)}.com`, "labels of 1 to 63"],
    ["alice@bücher.example", "only letters, digits and -"],
    ["ålice@example.com", "only letters"],
  ])("refuses %j (%s)", (address, reason) => {
    expect(emailAddressProblem(address)).toContain(reason);
  });

  it("refuses what is not a string", () => {
    for (const value of [undefined, null, 42, {}, ["a@b.example"]]) {
      expect(emailAddressProblem(value)).toBe("must be a string");
    }
  });

  it(`refuses more than ${MAX_EMAIL_LENGTH} characters, and an oversized input before trimming it`, () => {
    const long = `${"a".repeat(60)}@${"b".repeat(60)}.${"c".repeat(60)}.${"d".repeat(60)}.${"e".repeat(20)}.example`;
    expect(long.length).toBeGreaterThan(MAX_EMAIL_LENGTH);
    expect(emailAddressProblem(long)).toContain("at most");
    expect(emailAddressProblem(" ".repeat(10_000_000))).toContain("at most");
  });
});

describe("checkEmailAddress", () => {
  it("trims and lower-cases the domain, keeping the local part's case", () => {
    expect(checkEmailAddress("  Alice.Smith@Example.COM \t")).toBe("Alice.Smith@example.com");
  });

  it("throws VALIDATION_FAILED on path email, naming the rule and never echoing the input", () => {
    let error: unknown;
    try {
      checkEmailAddress("secret-looking@value");
    } catch (e) {
      error = e;
    }
    expect(isPlatformError(error) && error.code).toBe("VALIDATION_FAILED");
    expect(error).toMatchObject({ details: { issues: [{ path: "email" }] } });
    expect((error as Error).message).not.toContain("secret-looking");
  });
});

describe("emailAddressKey", () => {
  it("is the whole address lower-cased", () => {
    expect(emailAddressKey("Alice@Example.com")).toBe("alice@example.com");
  });
});
