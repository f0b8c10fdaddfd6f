import { describe, expect, it } from "vitest";
import { isPlatformError } from "../../kernel/platform-error.js";
import { GOVERNANCE_AUDIT } from "../governance-audit.js";
import { ALICE, governanceHarness, KEY, V19, V20 } from "../governance.fixture.js";
import type { TransitionRequest } from "../release-governance.js";
import { selectorHarness } from "../selection/selection.fixture.js";
import { describeCanaryShare, requestedCanaryShare } from "./canary-share.js";

const ask = (target: string, extra: Partial<TransitionRequest> = {}): TransitionRequest => ({
  promptKey: KEY,
  promptVersion: V20,
  targetReleaseStatus: target,
  rationale: "try it on a share",
  ...extra,
});

/** A harness with v19 ACTIVE, v20 in `from` with all its evidence. */
async function harness(from: "SHADOW" | "CANARY" | "ACTIVE" = "SHADOW") {
  const h = governanceHarness();
  await h.seed({ [V20]: from, [V19]: from === "ACTIVE" ? "DEPRECATED" : "ACTIVE" });
  await h.evidence(V20);
  return h;
}

describe("a move to CANARY writes its share and targets with the state", () => {
  it("writes them on the row with its state, and the history entry and audit record carry them", async () => {
    const h = await harness();
    const share = { canaryPercent: 10, canaryTenants: ["acme"], canaryResourceFamilies: ["/api/orders"] };
    const receipt = await h.governance.transition(ask("CANARY", share), ALICE);
    expect(receipt).toMatchObject({ outcome: "APPLIED", canary: share });
    expect(await h.row(V20)).toMatchObject({ status: "CANARY", ...share });
    const [entry] = await h.governance.history({ promptVersion: V20, limit: 1 });
    expect(entry).toMatchObject({ kind: "TRANSITION_APPLIED", toStatus: "CANARY", canary: share });
    const audited = h.audit.events().find((e) => e.type === GOVERNANCE_AUDIT.transitionApplied);
    expect(audited?.data).toMatchObject({ canary: share });
  });

  it("a move without a share is the whole scope, and says so in the receipt and history", async () => {
    const h = await harness();
    const receipt = await h.governance.transition(ask("CANARY"), ALICE);
    expect(receipt.canary).toEqual({});
    expect(describeCanaryShare(receipt.canary!)).toBe("whole scope (no share set)");
    expect((await h.row(V20))?.canaryPercent).toBeUndefined();
    expect((await h.governance.history({ limit: 1 }))[0]?.canary).toEqual({});
  });

  it("a blocked or dry-run move writes nothing", async () => {
    const h = governanceHarness();
    await h.seed({ [V20]: "SHADOW", [V19]: "ACTIVE" });
    const blocked = await h.governance.transition(ask("CANARY", { canaryPercent: 5 }), ALICE);
    expect(blocked.outcome).toBe("BLOCKED");
    expect(await h.row(V20)).toMatchObject({ status: "SHADOW" });
    expect((await h.row(V20))?.canaryPercent).toBeUndefined();
    await h.evidence(V20);
    const dry = await h.governance.transition(ask("CANARY", { canaryPercent: 5 }), ALICE, { dryRun: true });
    expect(dry).toMatchObject({ outcome: "APPLIED", dryRun: true, canary: { canaryPercent: 5 } });
    expect((await h.row(V20))?.canaryPercent).toBeUndefined();
  });
});

describe("re-share, leaving and re-entering CANARY", () => {
  it("CANARY → CANARY with a share grows or shrinks it (recorded); without one it stays illegal", async () => {
    const h = await harness();
    await h.governance.transition(ask("CANARY", { canaryPercent: 10, canaryTenants: ["acme"] }), ALICE);
    const grown = await h.governance.transition(ask("CANARY", { canaryPercent: 50 }), ALICE);
    expect(grown).toMatchObject({ outcome: "APPLIED", fromStatus: "CANARY", targetStatus: "CANARY" });
    // The fields a re-share names are replaced; the others are kept.
    expect(await h.row(V20)).toMatchObject({ canaryPercent: 50, canaryTenants: ["acme"] });
    await h.governance.transition(ask("CANARY", { canaryPercent: 1, canaryTenants: [] }), ALICE);
    expect(await h.row(V20)).toMatchObject({ canaryPercent: 1, canaryTenants: [] });
    const entries = await h.governance.history({ promptVersion: V20, limit: 3 });
    expect(entries.map((e) => e.canary?.canaryPercent)).toEqual([1, 50, 10]);
    const bare = await h.governance.transition(ask("CANARY"), ALICE);
    expect(bare.blockers.map((b) => b.code)).toEqual(["ILLEGAL_STATE_TRANSITION"]);
  });

  it("leaving CANARY keeps the share inert; entering again takes only the share it names", async () => {
    const h = await harness();
    await h.governance.transition(ask("CANARY", { canaryPercent: 10 }), ALICE);
    await h.governance.transition(ask("ACTIVE"), ALICE);
    expect(await h.row(V20)).toMatchObject({ status: "ACTIVE", canaryPercent: 10 });
    const back = await h.governance.transition(ask("CANARY", { canaryTenants: ["acme"] }), ALICE);
    expect(back.outcome).toBe("APPLIED");
    const row = await h.row(V20);
    expect(row).toMatchObject({ status: "CANARY", canaryTenants: ["acme"] });
    expect(row?.canaryPercent).toBeUndefined();
  });
});

describe("refused requests (VALIDATION_FAILED naming the field, nothing recorded)", () => {
  const refusals: [string, string, Partial<TransitionRequest>][] = [
    ["a share on another target", "canaryPercent", { targetReleaseStatus: "ACTIVE", canaryPercent: 10 }],
    ["tenants on another target", "canaryTenants", { targetReleaseStatus: "RETIRED", canaryTenants: ["a"] }],
    ["101", "canaryPercent", { canaryPercent: 101 }],
    ["-1", "canaryPercent", { canaryPercent: -1 }],
    ["a decimal", "canaryPercent", { canaryPercent: 10.5 }],
    ["NaN", "canaryPercent", { canaryPercent: Number.NaN }],
    ["a string", "canaryPercent", { canaryPercent: "10" as never }],
    ["10,000 tenants", "canaryTenants", { canaryTenants: Array.from({ length: 10_000 }, (_, i) => `t${i}`) }],
    ["a tenant that is not a list", "canaryTenants", { canaryTenants: "acme" as never }],
    ["a blank tenant", "canaryTenants", { canaryTenants: [" "] }],
    ["a control character", "canaryTenants", { canaryTenants: ["ac\u0000me"] }],
    ["a bidi override", "canaryTenants", { canaryTenants: ["ac\u202eme"] }],
    ["a 300-character tenant", "canaryTenants", { canaryTenants: ["x".repeat(300)] }],
    ["a duplicate tenant", "canaryTenants", { canaryTenants: ["a", "a"] }],
    ["a ../ family", "canaryResourceFamilies", { canaryResourceFamilies: ["/api/../admin"] }],
    ["a // family", "canaryResourceFamilies", { canaryResourceFamilies: ["/api//orders"] }],
    ["a non-canonical family", "canaryResourceFamilies", { canaryResourceFamilies: ["/api/orders/"] }],
    ["an encoded family", "canaryResourceFamilies", { canaryResourceFamilies: ["/api/%6frders"] }],
    ["a family with spaces", "canaryResourceFamilies", { canaryResourceFamilies: ["order service"] }],
  ];
  it.each(refusals)("%s", async (_, field, extra) => {
    const h = await harness();
    const error = await h.governance.transition(ask("CANARY", extra), ALICE).catch((e: unknown) => e);
    expect(isPlatformError(error) && error.code).toBe("VALIDATION_FAILED");
    expect((error as { details?: { fields?: string[] } }).details?.fields).toEqual([field]);
    expect((await h.row(V20))?.status).toBe("SHADOW");
    expect(await h.governance.history({ promptVersion: V20 })).toEqual([]);
  });

  it("takes the bounds exactly: 0 and 100, 100 tenants, `/` and resource IDs", () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `t${i}`);
    expect(
      requestedCanaryShare(
        { canaryPercent: 0, canaryTenants: hundred, canaryResourceFamilies: ["/", "OrderService", "app.x"] },
        "CANARY",
      ),
    ).toMatchObject({ canaryPercent: 0, canaryResourceFamilies: ["/", "OrderService", "app.x"] });
    expect(requestedCanaryShare({ canaryPercent: 100 }, "CANARY")).toEqual({ canaryPercent: 100 });
    expect(requestedCanaryShare({}, "ACTIVE")).toBeUndefined();
  });
});

describe("the registry selector honours a share set through the service", () => {
  // ± 1 point: about 4.7 standard deviations of a 10% share over 20,000 (the 100,000-requester
  // distribution test of canary-membership holds ± 0.5).
  it("10% of 20,000 requesters run the canary (± 1 point), the rest the ACTIVE release", async () => {
    const h = await harness();
    await h.governance.transition(ask("CANARY", { canaryPercent: 10 }), ALICE);
    const s = selectorHarness({ registry: h.registry });
    await s.cache.refresh();
    let canary = 0;
    for (let i = 0; i < 20_000; i++) {
      const selected = s.selector.select(s.event({ userId: `user-${i}` }));
      if (selected.source === "CANARY") canary++;
      else expect(selected.version).toBe(V19);
    }
    expect(Math.abs((canary / 20_000) * 100 - 10)).toBeLessThanOrEqual(1);
  });
});
