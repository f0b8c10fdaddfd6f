import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryDistributedLock } from "../../kernel/coordination/in-memory-distributed-lock.js";
import { parsePromptInput } from "../../prompts/input/prompt-input.js";
import { verifyEvidenceChain } from "./evidence-chain-verifier.js";
import type { EvidencePackage } from "./evidence-package.js";
import { EvidenceRetention, RETENTION_LOCK } from "./evidence-retention.js";
import type { LatestInspectionOutcome } from "./inspection-outcomes.js";
import { sealedEvidenceFixture } from "./sealed-evidence.fixture.js";

const DAY = 86_400_000;

function pkg(id: string, at: number): EvidencePackage {
  return {
    id,
    eventId: `evt-${id}`,
    at,
    prompts: [{ layer: "L1", system: "s", user: `u ${id}` }],
    input: parsePromptInput({ eventId: `evt-${id}` }),
    metadata: {
      eventKind: "SIGN_IN_COMPLETED",
      userId: "alice",
      action: "ALLOW",
      riskScore: 0.1,
      confidence: 0.9,
      layer: "L1",
      bundleVersion: "v19",
      bundleHash: "h19",
      selectionSource: "BUILD_DEFAULT",
      model: { id: "m", external: false },
      timings: {},
      redacted: [],
    },
  };
}

async function setup(outcomes?: Record<string, LatestInspectionOutcome>) {
  const clock = new ManualClock(1_000 * DAY);
  const f = sealedEvidenceFixture({ clock });
  const lock = new InMemoryDistributedLock(clock);
  const retention = new EvidenceRetention({
    store: f.store,
    chain: f.chain,
    lock,
    outcomes: outcomes && { latestInspectionOutcome: async (id) => outcomes[id] },
    audit: f.audit,
    now: () => clock.now(),
    owner: "node-1:retention",
    instanceId: "node-1",
    periodMs: 90 * DAY,
    cleanPeriodMs: 30 * DAY,
  });
  const now = clock.now();
  // Ages in days: old (past 90), clean (40, inspected clean), findings (40), fresh (40, never inspected), young (10, clean).
  for (const [id, age] of [
    ["old", 95],
    ["clean", 40],
    ["findings", 40],
    ["uninspected", 40],
    ["young", 10],
  ] as const)
    await f.sealed.record(pkg(id, now - age * DAY));
  return { clock, f, lock, retention };
}

describe("EvidenceRetention", () => {
  it("deletes past 90 days, past 30 when the latest inspection was clean; records each deletion in the chain", async () => {
    const { f, retention } = await setup({ clean: "CLEAN", findings: "FINDINGS", young: "CLEAN" });
    expect(await retention.runOnce()).toEqual({ ran: true, deleted: 2, recordsDeleted: 1 });
    const kept = async (id: string) => (await f.store.packageEntry(id))?.header !== undefined;
    expect([
      await kept("old"),
      await kept("clean"),
      await kept("findings"),
      await kept("uninspected"),
      await kept("young"),
    ]).toEqual([false, false, true, true, true]);
    const entries = await f.store.entries("node-1", 0, 100);
    expect(entries.filter((e) => e.kind === "DELETION").map((e) => e.packageIds)).toEqual([
      ["old"],
      ["clean"],
    ]);
    const verdict = verifyEvidenceChain({
      instanceId: "node-1",
      entries,
      checkpoints: await f.store.checkpoints("node-1"),
      keys: await f.signer.publicKeys(),
    });
    expect(verdict).toMatchObject({ intact: true, coveredTo: 7 });
    expect((await f.sealed.read("clean", { principal: "a" }))?.seal).toMatchObject({
      intact: false,
      reason: "DELETED",
    });
  });

  it("keeps the full period for every package without an inspection read", async () => {
    const { f, retention } = await setup();
    expect(await retention.runOnce()).toMatchObject({ ran: true, deleted: 1 });
    expect((await f.store.packageEntry("clean"))?.header).toBeDefined();
  });

  it("does nothing while another instance holds the lock", async () => {
    const { lock, retention } = await setup();
    await lock.tryAcquire(RETENTION_LOCK, "node-2:retention", 60_000);
    expect(await retention.runOnce()).toEqual({ ran: false, deleted: 0, recordsDeleted: 0 });
  });
});
