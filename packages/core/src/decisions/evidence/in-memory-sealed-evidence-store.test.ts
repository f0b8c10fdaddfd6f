import { describe, expect, it } from "vitest";
import { codeOf } from "../../kernel/error-code.test-support.js";
import { parsePromptInput } from "../../prompts/input/prompt-input.js";
import type { EvidencePackage } from "./sealed-evidence-store.js";
import { InMemorySealedEvidenceStore } from "./in-memory-sealed-evidence-store.js";

function pkg(id: string): EvidencePackage {
  return {
    id,
    eventId: `evt-${id}`,
    at: 1,
    prompts: [{ layer: "L1", system: "sys", user: "usr" }],
    input: parsePromptInput({ eventId: `evt-${id}` }),
    metadata: {
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
      timings: { totalMs: 3 },
      redacted: [],
    },
  };
}

describe("InMemorySealedEvidenceStore", () => {
  it("reads a package by id and by recency, newest first", async () => {
    const store = new InMemorySealedEvidenceStore(10);
    for (const id of ["a", "b", "c"]) await store.put(pkg(id));
    expect((await store.get("b"))?.eventId).toBe("evt-b");
    expect(await store.get("zz")).toBeUndefined();
    expect((await store.recent(2)).map((p) => p.id)).toEqual(["c", "b"]);
  });

  it("keeps at most capacity packages, dropping and counting the oldest", async () => {
    const store = new InMemorySealedEvidenceStore(2);
    for (const id of ["a", "b", "c"]) await store.put(pkg(id));
    expect(await store.get("a")).toBeUndefined();
    expect((await store.recent(10)).map((p) => p.id)).toEqual(["c", "b"]);
    expect(store.dropped).toBe(1);
  });

  it("refuses a duplicate id and a bad limit; answers are copies", async () => {
    const store = new InMemorySealedEvidenceStore();
    await store.put(pkg("a"));
    expect(await codeOf(store.put(pkg("a")))).toBe("CONFLICT");
    expect(await codeOf(store.recent(0))).toBe("VALIDATION_FAILED");
    const read = await store.get("a");
    (read!.prompts[0] as { user: string }).user = "changed";
    expect((await store.get("a"))!.prompts[0]!.user).toBe("usr");
  });
});
