import { describe, expect, it } from "vitest";
import type { CombiningAlgorithm } from "./combining-algorithm.js";
import { caller, pdpWith, request, urlPolicy } from "./pdp.fixture.js";

const alice = caller("alice", "ROLE_USER");

/** Two policies on /x: a DENY and an ALLOW, each applicable (condition holds) or not. */
async function decide(
  algorithm: CombiningAlgorithm,
  denyApplies: boolean | undefined,
  allowApplies: boolean | undefined,
  noMatchGranted = true,
): Promise<boolean> {
  const policies = [];
  if (denyApplies !== undefined)
    policies.push(urlPolicy("deny", "DENY", 1, "/x", [denyApplies ? "permitAll" : "denyAll"]));
  if (allowApplies !== undefined)
    policies.push(urlPolicy("allow", "ALLOW", 2, "/x", [allowApplies ? "permitAll" : "denyAll"]));
  const { manager } = await pdpWith(policies, { algorithm, noMatchGranted });
  return (await manager.check(alice, request("GET", "/x"))).granted;
}

describe("combining algorithms (XACML; a policy whose condition does not hold is NotApplicable)", () => {
  // [algorithm, deny applies, allow applies, granted]; undefined = no such policy.
  it.each([
    ["DENY_OVERRIDES", true, true, false],
    ["DENY_OVERRIDES", false, true, true],
    ["DENY_OVERRIDES", false, false, true],
    ["DENY_OVERRIDES", undefined, undefined, true],
    ["PERMIT_OVERRIDES", true, true, true],
    ["PERMIT_OVERRIDES", true, false, false],
    ["PERMIT_OVERRIDES", false, false, true],
    ["DENY_UNLESS_PERMIT", true, true, true],
    ["DENY_UNLESS_PERMIT", false, false, false],
    ["DENY_UNLESS_PERMIT", undefined, undefined, false],
    ["PERMIT_UNLESS_DENY", true, true, false],
    ["PERMIT_UNLESS_DENY", false, false, true],
    ["PERMIT_UNLESS_DENY", undefined, undefined, true],
    // FIRST_APPLICABLE: the first matching policy decides, DENY as !(condition) (a false condition grants).
    ["FIRST_APPLICABLE", true, true, false],
    ["FIRST_APPLICABLE", false, false, true],
    ["FIRST_APPLICABLE", undefined, false, false],
  ] as const)("%s with deny=%s allow=%s → granted %s", async (algorithm, deny, allow, granted) => {
    expect(await decide(algorithm, deny, allow)).toBe(granted);
  });

  it("no applicable policy follows no-match-decision for DENY_OVERRIDES and PERMIT_OVERRIDES only", async () => {
    expect(await decide("DENY_OVERRIDES", false, false, false)).toBe(false);
    expect(await decide("PERMIT_OVERRIDES", undefined, undefined, false)).toBe(false);
    expect(await decide("PERMIT_UNLESS_DENY", false, false, false)).toBe(true);
  });

  it("names the deciding policy", async () => {
    const { manager } = await pdpWith(
      [
        urlPolicy("allow", "ALLOW", 1, "/x", ["permitAll"]),
        urlPolicy("deny", "DENY", 2, "/x", ["permitAll"]),
      ],
      { algorithm: "DENY_OVERRIDES" },
    );
    expect(await manager.check(alice, request("GET", "/x"))).toMatchObject({
      granted: false,
      policyName: "deny",
    });
  });

  it("an evaluation error counts as Deny (fail closed)", async () => {
    const { manager } = await pdpWith(
      [urlPolicy("broken", "ALLOW", 1, "/x", ["nope("]), urlPolicy("allow", "ALLOW", 2, "/x", ["permitAll"])],
      { algorithm: "PERMIT_UNLESS_DENY" },
    );
    expect((await manager.check(alice, request("GET", "/x"))).granted).toBe(false);
  });
});
