import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { parsePromptInput } from "../../prompts/input/prompt-input.js";
import { verifyEvidenceChain } from "./evidence-chain-verifier.js";
import type { EvidenceMetadata } from "./evidence-package.js";
import { sealedEvidenceFixture } from "./sealed-evidence.fixture.js";
import { InMemorySealedEvidenceStore } from "./in-memory-sealed-evidence-store.js";
import { describeSealedEvidenceStoreContract } from "./sealed-evidence-store.contract.js";

describeSealedEvidenceStoreContract("InMemorySealedEvidenceStore", () => new InMemorySealedEvidenceStore());

const METADATA: EvidenceMetadata = {
  eventKind: "SIGN_IN_COMPLETED",
  userId: "u1",
  action: "ALLOW",
  riskScore: 0.1,
  confidence: 0.9,
  layer: "L1",
  bundleVersion: "v19",
  bundleHash: "h",
  selectionSource: "BUILD_DEFAULT",
  model: { id: "m", external: false },
  timings: {},
  redacted: [],
};

describe("InMemorySealedEvidenceStore", () => {
  it("keeps at most capacity decision records, dropping and counting the oldest", async () => {
    const store = new InMemorySealedEvidenceStore(2);
    for (const id of ["a", "b", "c"])
      await store.putRecord({
        id,
        eventId: id,
        at: 1,
        metadata: METADATA,
        sealed: false,
      });
    expect(await store.record("a")).toBeUndefined();
    expect((await store.recentRecords(10)).map((r) => r.id)).toEqual(["c", "b"]);
    expect(store.dropped).toBe(1);
  });

  it("keeps at most capacity packages, recording each one it drops in the chain, which still verifies", async () => {
    const store = new InMemorySealedEvidenceStore(2);
    const f = sealedEvidenceFixture({ clock: new ManualClock(1_000), store });
    for (const id of ["a", "b", "c"])
      await f.sealed.record({
        id,
        eventId: id,
        at: 1_000,
        prompts: [{ layer: "L1", system: "s", user: "u" }],
        input: parsePromptInput({ eventId: id }),
        metadata: METADATA,
      });
    expect((await store.packageEntry("a"))?.header).toBeUndefined();
    expect((await store.packageEntry("c"))?.header).toBeDefined();
    expect(store.droppedPackageCount).toBe(1);
    const entries = await store.entries("node-1", 0, 10);
    expect(entries.map((e) => e.kind)).toEqual(["PACKAGE", "PACKAGE", "PACKAGE", "DELETION"]);
    const verdict = verifyEvidenceChain({ instanceId: "node-1", entries, checkpoints: [], keys: [] });
    expect(verdict).toMatchObject({ intact: true, entries: 4 });
  });
});
