import { describe, expect, it } from "vitest";
import { CANARY_BUCKETS, canaryBucket, canarySaltOf } from "./canary-bucket.js";
import { type CanaryRelease, type CanaryRequest, canaryMembership, inCanary } from "./canary-membership.js";

const N = 100_000;

function release(over: Partial<CanaryRelease> = {}): CanaryRelease {
  return {
    registryScope: "PLATFORM_GLOBAL",
    promptKey: "security-decision",
    promptVersion: "v20",
    artifactHash: "sha256:abc",
    ...over,
  };
}

/** 100,000 synthetic requesters: a third signed-in users, a third sessions only, a third bare events. */
const requesters: CanaryRequest[] = Array.from({ length: N }, (_, i) => {
  if (i % 3 === 0) return { userId: `user-${i}`, sessionId: `sess-${i}`, eventId: `evt-${i}` };
  if (i % 3 === 1) return { sessionId: `sess-${i}`, eventId: `evt-${i}` };
  return { eventId: `evt-${i}` };
});

const memo = new Map<string, boolean[]>();

/** Every requester's answer for a release (memoised: the 100,000-requester passes are shared between tests). */
function membersOf(r: CanaryRelease): boolean[] {
  const key = JSON.stringify(r);
  const known = memo.get(key);
  if (known) return known;
  const flags = requesters.map((q) => inCanary(r, q));
  memo.set(key, flags);
  return flags;
}

function percentOf(flags: readonly boolean[]): number {
  return (flags.filter(Boolean).length * 100) / flags.length;
}

describe("canary share over 100,000 synthetic requesters", () => {
  it.each([1, 10, 50])("puts %i percent in, within ±0.5 points", (share) => {
    expect(Math.abs(percentOf(membersOf(release({ canaryPercent: share }))) - share)).toBeLessThanOrEqual(
      0.5,
    );
  });

  it("grows monotonically: everyone in at 5 percent is in at 10 percent", () => {
    const at5 = membersOf(release({ canaryPercent: 5 }));
    const at10 = membersOf(release({ canaryPercent: 10 }));
    const movedOut = at5.filter((inAt5, i) => inAt5 && !at10[i]).length;
    expect(movedOut).toBe(0);
    expect(percentOf(at10)).toBeGreaterThan(percentOf(at5) + 4);
  });

  it("salts per release: two releases at 10 percent share about 1 percent of requesters, not 10", () => {
    const v20 = membersOf(release({ canaryPercent: 10 }));
    const v21 = membersOf(release({ promptVersion: "v21", canaryPercent: 10 }));
    const both = percentOf(v20.map((x, i) => x && v21[i]!));
    expect(both).toBeGreaterThan(0.8);
    expect(both).toBeLessThan(1.2);
  });

  it("salts by build and scope too: a new artifact hash or another scope draws a new sample", () => {
    const first = requesters.slice(0, 20_000);
    const v20 = membersOf(release({ canaryPercent: 10 })).slice(0, 20_000);
    const others = [release({ artifactHash: "sha256:def" }), release({ registryScope: "tenant-a" })];
    for (const other of others.map((r) => ({ ...r, canaryPercent: 10 }))) {
      const flags = first.map((q) => inCanary(other, q));
      const both = percentOf(v20.map((x, i) => x && flags[i]!));
      expect(both).toBeGreaterThan(0.6);
      expect(both).toBeLessThan(1.4);
    }
  });
});

describe("canaryMembership boundaries", () => {
  const some = requesters.slice(0, 5_000);

  it.each([
    ["none", 0, 0],
    ["all", 100, 100],
    ["absent means the whole scope", undefined, 100],
    ["above 100 is clamped", 150, 100],
    ["negative is clamped", -5, 0],
    ["not a number is none", Number.NaN, 0],
  ])("%s: a %s share lets %s percent in", (_, canaryPercent, expected) => {
    const r = release({ canaryPercent });
    expect(percentOf(some.map((q) => inCanary(r, q)))).toBe(expected);
  });

  it("names the reason: the share, or the first narrowing that failed", () => {
    const r = release({
      canaryPercent: 100,
      canaryTenants: ["t-1"],
      canaryResourceFamilies: ["/api/orders"],
    });
    const base = { eventId: "e-1", tenant: "t-1", resourceAddress: "/api/orders/1" };
    expect(canaryMembership(r, base)).toEqual({ member: true, reason: "IN_SHARE" });
    expect(canaryMembership(r, { ...base, tenant: "t-2" }).reason).toBe("TENANT_NOT_LISTED");
    expect(canaryMembership(r, { ...base, resourceAddress: "/api/users" }).reason).toBe("FAMILY_NOT_LISTED");
    expect(canaryMembership({ ...r, canaryPercent: 0 }, base).reason).toBe("OUTSIDE_SHARE");
  });

  it("narrows the share, it does not widen it: a listed tenant still needs a bucket below the share", () => {
    const r = release({ canaryPercent: 10, canaryTenants: ["t-1"] });
    const share = percentOf(some.map((q) => inCanary(r, { ...q, tenant: "t-1" })));
    expect(share).toBeGreaterThan(8);
    expect(share).toBeLessThan(12);
    expect(some.some((q) => inCanary(r, { ...q, tenant: "t-2" }))).toBe(false);
  });
});

describe("stickiness", () => {
  const salt = canarySaltOf(release());

  it("gives the same bucket in every process: vectors computed apart with Python's hashlib", () => {
    expect(salt).toBe('["canary/1","PLATFORM_GLOBAL","security-decision","v20","sha256:abc"]');
    expect(canaryBucket(salt, "u:alice")).toBe(930_912);
    expect(canaryBucket(salt, "s:sess-1")).toBe(200_371);
    expect(canaryBucket(salt, "e:evt-1")).toBe(831_986);
    expect(canaryBucket(salt, "u:")).toBe(241_136);
  });

  it("gives the same answer on every call, and buckets stay in 0..CANARY_BUCKETS-1", () => {
    const r = release({ canaryPercent: 30 });
    const some = requesters.slice(0, 2_000);
    expect(some.map((q) => inCanary(r, q))).toEqual(some.map((q) => inCanary({ ...r }, { ...q })));
    const buckets = some.map((_, i) => canaryBucket(salt, `u:${i}`));
    expect(buckets.filter((b) => !(Number.isInteger(b) && b >= 0 && b < CANARY_BUCKETS))).toEqual([]);
  });

  it("places a requester by user, else session, else event", () => {
    const r = release({ canaryPercent: 50 });
    const byUser = requesters.slice(0, 300).map((_, i) => ({ userId: `user-${i}`, eventId: "x" }));
    for (const q of byUser) {
      expect(inCanary(r, { ...q, sessionId: "s-other", eventId: "e-other" })).toBe(inCanary(r, q));
    }
  });
});
