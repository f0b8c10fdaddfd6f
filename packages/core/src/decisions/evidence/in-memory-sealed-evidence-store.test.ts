import { describe, expect, it } from "vitest";
import type { EvidenceMetadata } from "./evidence-package.js";
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
});
