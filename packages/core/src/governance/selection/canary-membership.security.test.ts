import { describe, expect, it } from "vitest";
import { CANARY_BUCKETS, canaryBucket, canarySaltOf } from "./canary-bucket.js";
import { type CanaryRelease, canaryMembership } from "./canary-membership.js";

const release: CanaryRelease = {
  registryScope: "PLATFORM_GLOBAL",
  promptKey: "security-decision",
  promptVersion: "v20",
  artifactHash: "sha256:abc",
  canaryPercent: 50,
  canaryTenants: ["t-1"],
  canaryResourceFamilies: ["/api/orders"],
};

describe("canaryMembership on hostile input", () => {
  const huge = "x".repeat(2_000_000);

  it.each([
    ["empty ids", { userId: "", sessionId: "", eventId: "" }],
    ["huge ids", { userId: huge, sessionId: huge, eventId: huge }],
    ["Unicode and control characters", { userId: "Zoë\u0000\n\u202E\u{1F600}", eventId: "e" }],
    ["lone surrogates", { sessionId: "\uD800", eventId: "\uDFFF" }],
    ["a huge tenant and address", { eventId: "e", tenant: huge, resourceAddress: `/${huge}` }],
  ])("answers, never throws, for %s", (_, request) => {
    const answer = canaryMembership(release, { tenant: "t-1", resourceAddress: "/api/orders/1", ...request });
    expect(typeof answer.member).toBe("boolean");
  });

  it("buckets any salt and key, empty or huge, inside the range", () => {
    for (const [salt, key] of [
      ["", ""],
      [huge, huge],
      ["\uD800", "\uDC00"],
    ] as const) {
      const b = canaryBucket(salt, key);
      expect(b >= 0 && b < CANARY_BUCKETS).toBe(true);
    }
  });

  it("cannot be confused by a field that holds the salt's separators", () => {
    const a = canarySaltOf({
      registryScope: 'A","B',
      promptKey: "C",
      promptVersion: "v1",
      artifactHash: "h",
    });
    const b = canarySaltOf({
      registryScope: "A",
      promptKey: 'B","C',
      promptVersion: "v1",
      artifactHash: "h",
    });
    expect(a).not.toBe(b);
    expect(canaryBucket("ab", "c")).not.toBe(canaryBucket("a", "bc"));
  });
});
