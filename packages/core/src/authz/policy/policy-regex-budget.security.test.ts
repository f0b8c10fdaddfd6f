import { describe, expect, it } from "vitest";
import { manual, ROOT, setup } from "./policy.fixture.js";
import { MAX_POLICY_SET_REGEX_PROGRAM_SIZE, regexProgramSizeOf } from "./policy-regex-budget.js";

// The outside attack on the RE2 fix: fifty DFA-defeating targets per policy, as many policies as an
// administrator likes, each anonymous request paying for every one of them. The policy set's regex
// work is now bounded at save.
const HEAVY = "/{v:[ab]*a[ab]{15}}";
const target = (i: number) => ({ targetType: "URL" as const, targetIdentifier: `${HEAVY}/x${i}` });

describe("the regex budget of the whole policy set", () => {
  it("counts a policy's regex targets in RE2 instructions, literal and plain-variable targets as 0", () => {
    expect(
      regexProgramSizeOf([
        {
          targetType: "URL",
          targetIdentifier: "/admin/**",
          httpMethod: "ANY",
          targetOrder: 0,
          sourceType: "MANUAL",
        },
      ]),
    ).toBe(0);
    expect(
      regexProgramSizeOf([
        {
          targetType: "URL",
          targetIdentifier: "/o/{id}",
          httpMethod: "ANY",
          targetOrder: 0,
          sourceType: "MANUAL",
        },
      ]),
    ).toBe(0);
    const heavy = regexProgramSizeOf([
      { targetType: "URL", targetIdentifier: HEAVY, httpMethod: "ANY", targetOrder: 0, sourceType: "MANUAL" },
    ]);
    expect(heavy).toBeGreaterThan(20);
  });

  it("refuses the policy that would take the set over the budget, stores nothing, and counts updates", async () => {
    const { service, repository } = setup();
    const perTarget = regexProgramSizeOf([
      { targetType: "URL", targetIdentifier: HEAVY, httpMethod: "ANY", targetOrder: 0, sourceType: "MANUAL" },
    ]);
    const perPolicy = 10;
    const fitting = Math.floor(MAX_POLICY_SET_REGEX_PROGRAM_SIZE / (perTarget * perPolicy));
    let saved = 0;
    let refusal: unknown;
    for (let p = 0; p <= fitting + 1 && refusal === undefined; p++) {
      const input = manual({
        name: `heavy ${p}`,
        targets: Array.from({ length: perPolicy }, (_, i) => target(i)),
      });
      refusal = await service.create(input, ROOT).then(
        () => {
          saved++;
          return undefined;
        },
        (e: unknown) => e,
      );
    }
    expect(saved).toBe(fitting);
    expect(refusal).toMatchObject({
      code: "VALIDATION_FAILED",
      details: { issues: [{ path: "targets", reason: expect.stringContaining("RE2 instructions") }] },
    });
    expect(await repository.findAll({})).toHaveLength(fitting);
    // An update that swaps a policy's own targets is judged without its old targets.
    const [first] = await repository.findAll({});
    const updated = await service.update(first!.id, first!.version, { targets: [target(99)] }, ROOT);
    expect(updated.targets).toHaveLength(1);
    // Policies without regex variables are never refused by the budget.
    await expect(service.create(manual({ name: "plain" }), ROOT)).resolves.toMatchObject({ name: "plain" });
  });
});
