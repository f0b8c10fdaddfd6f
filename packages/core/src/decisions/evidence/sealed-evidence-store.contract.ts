import { describe, expect, it } from "vitest";
import { codeOf } from "../../kernel/error-code.test-support.js";
import { parsePromptInput } from "../../prompts/input/prompt-input.js";
import { type ChainEntry, genesisLinkOf, linkOf, recordHashOf } from "./chain-entry.js";
import type { EvidenceCheckpoint } from "./evidence-checkpoint.js";
import type { DecisionRecord, EvidenceMetadata, EvidencePackage } from "./evidence-package.js";
import type { SealedEvidenceStore } from "./sealed-evidence-store.js";
import { sealPackage } from "./sealed-package.js";

type Factory = () => Promise<SealedEvidenceStore> | SealedEvidenceStore;

const RACERS = 10;

function metadata(userId: string): EvidenceMetadata {
  return {
    eventKind: "SIGN_IN_COMPLETED",
    userId,
    action: "ALLOW",
    riskScore: 0.1,
    confidence: 0.9,
    layer: "L1",
    bundleVersion: "v19",
    bundleHash: "h",
    selectionSource: "BUILD_DEFAULT",
    stage: "ENFORCE",
    model: { id: "m", external: false },
    timings: { totalMs: 3 },
    redacted: [],
  };
}

function record(id: string, at: number): DecisionRecord {
  return { id, eventId: `evt-${id}`, correlationId: `c-${id}`, at, metadata: metadata("u1"), sealed: false };
}

/** A PACKAGE entry for `id` at `sequence` linked to `previousLink` (genesis for the first). */
function packageEntry(
  id: string,
  sequence: number,
  o: { at?: number; userId?: string; previousLink?: string; instanceId?: string } = {},
): ChainEntry {
  const instanceId = o.instanceId ?? "node-1";
  const pkg: EvidencePackage = {
    id,
    eventId: `evt-${id}`,
    at: o.at ?? sequence * 1000,
    prompts: [{ layer: "L1", system: "sys", user: `usr ${id}` }],
    input: parsePromptInput({ eventId: `evt-${id}` }),
    metadata: metadata(o.userId ?? "u1"),
  };
  const sealed = sealPackage(pkg, instanceId);
  const previousLink = o.previousLink ?? genesisLinkOf(instanceId);
  return {
    instanceId,
    sequence,
    kind: "PACKAGE",
    at: pkg.at,
    entryHash: sealed.packageHash,
    link: linkOf(previousLink, sealed.packageHash, sequence),
    packageIds: [id],
    header: sealed.header,
    payload: { ciphertext: `iv.${id}`, wrappedKey: `wk.${id}`, kid: "k1" },
  };
}

function deletionEntry(ids: string[], sequence: number, previousLink: string): ChainEntry {
  const entryHash = recordHashOf("DELETION", 5, ids);
  return {
    instanceId: "node-1",
    sequence,
    kind: "DELETION",
    at: 5,
    entryHash,
    link: linkOf(previousLink, entryHash, sequence),
    packageIds: ids,
  };
}

function checkpoint(sequence: number, instanceId = "node-1"): EvidenceCheckpoint {
  return { instanceId, sequence, link: "a".repeat(64), at: 1, kid: "k1", signature: "sig" };
}

/**
 * The behaviour every SealedEvidenceStore adapter must show. `factory` returns a fresh, empty store.
 * The chain's slot claim is the compare-and-set two writers of one chain race on.
 */
export function describeSealedEvidenceStoreContract(
  name: string,
  factory: () => Promise<SealedEvidenceStore> | SealedEvidenceStore,
): void {
  describe(`SealedEvidenceStore contract: ${name}`, () => {
    describeRecords(factory);
    describeChain(factory);
    describeThinning(factory);
    describeCheckpoints(factory);
  });
}

function describeRecords(factory: Factory): void {
  it("keeps decision records by id and answers them newest first, copies", async () => {
    const store = await factory();
    await store.putRecord(record("a", 1));
    await store.putRecord(record("c", 3));
    await store.putRecord(record("b", 2));
    expect(await store.record("a")).toEqual(record("a", 1));
    expect(await store.record("zz")).toBeUndefined();
    expect((await store.recentRecords(2)).map((r) => r.id)).toEqual(["c", "b"]);
    const read = (await store.record("a")) as { eventId: string };
    read.eventId = "changed";
    expect((await store.record("a"))!.eventId).toBe("evt-a");
  });

  it("refuses a second record of one id, a bad limit, and prunes by time", async () => {
    const store = await factory();
    await store.putRecord(record("a", 1));
    expect(await codeOf(store.putRecord(record("a", 9)))).toBe("CONFLICT");
    expect(await codeOf(store.recentRecords(0))).toBe("VALIDATION_FAILED");
    expect(await codeOf(store.recentRecords(1001))).toBe("VALIDATION_FAILED");
    await store.putRecord(record("b", 5));
    expect(await store.pruneRecords(5)).toBe(1);
    expect((await store.recentRecords(10)).map((r) => r.id)).toEqual(["b"]);
  });
}

function describeChain(factory: Factory): void {
  it("claims slots in order: the head is the last, entries read ascending from a sequence", async () => {
    const store = await factory();
    expect(await store.head("node-1")).toBeUndefined();
    const first = packageEntry("p1", 1);
    const second = packageEntry("p2", 2, { previousLink: first.link });
    await store.append(first);
    await store.append(second);
    await store.append(packageEntry("q1", 1, { instanceId: "node-2" }));
    expect(await store.head("node-1")).toEqual(second);
    expect(await store.entries("node-1", 0, 10)).toEqual([first, second]);
    expect(await store.entries("node-1", 1, 10)).toEqual([second]);
    expect(await store.entries("node-1", 0, 1)).toEqual([first]);
    expect(await store.chains()).toEqual(["node-1", "node-2"]);
    expect(await store.packageEntry("p2")).toEqual(second);
    expect(await store.packageEntry("nope")).toBeUndefined();
  });

  it("refuses a taken slot and a package sealed twice (CONFLICT), changing nothing", async () => {
    const store = await factory();
    const first = packageEntry("p1", 1);
    await store.append(first);
    expect(await codeOf(store.append(packageEntry("p2", 1)))).toBe("CONFLICT");
    expect(await codeOf(store.append(packageEntry("p1", 2, { previousLink: first.link })))).toBe("CONFLICT");
    expect(await store.entries("node-1", 0, 10)).toEqual([first]);
  });

  it("lets exactly one of racing writers claim a slot (no fork)", async () => {
    const store = await factory();
    const racers = Array.from({ length: RACERS }, (_, i) => store.append(packageEntry(`r${i}`, 1)));
    const results = await Promise.allSettled(racers);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results)
      if (r.status === "rejected") expect((r.reason as { code?: string }).code).toBe("CONFLICT");
    expect(await store.entries("node-1", 0, 10)).toHaveLength(1);
  });

  it("refuses a malformed entry (VALIDATION_FAILED), storing nothing", async () => {
    const store = await factory();
    const good = packageEntry("p1", 1);
    for (const bad of [
      { ...good, sequence: 0 },
      { ...good, instanceId: "a b" },
      { ...good, link: "nothex" },
      { ...good, kind: "OTHER" },
      { ...good, packageIds: ["p1", "p2"] },
      { ...good, packageIds: ["other"] },
      { ...deletionEntry(["x"], 1, genesisLinkOf("node-1")), packageIds: [] },
    ])
      expect(await codeOf(store.append(bad as ChainEntry))).toBe("VALIDATION_FAILED");
    expect(await codeOf(store.entries("node-1", 0, 0))).toBe("VALIDATION_FAILED");
    expect(await store.chains()).toEqual([]);
  });
}

function describeThinning(factory: Factory): void {
  it("drops a package's header and payload, keeping its hash and link", async () => {
    const store = await factory();
    const first = packageEntry("p1", 1);
    await store.append(first);
    await store.append(deletionEntry(["p1"], 2, first.link));
    expect(await store.dropPackage("p1")).toBe(true);
    expect(await store.dropPackage("p1")).toBe(false);
    expect(await store.dropPackage("nope")).toBe(false);
    const { header: _h, payload: _p, ...thin } = first;
    expect(await store.packageEntry("p1")).toEqual(thin);
    expect((await store.entries("node-1", 0, 10))[0]).toEqual(thin);
    expect(await store.keptPackages(10_000, 10)).toEqual([]);
  });

  it("destroys a payload's key only, and lists a user's readable packages", async () => {
    const store = await factory();
    const first = packageEntry("p1", 1, { userId: "alice" });
    const second = packageEntry("p2", 2, { userId: "bob", previousLink: first.link });
    await store.append(first);
    await store.append(second);
    expect((await store.readablePackagesOf("alice", 10)).map((e) => e.packageIds[0])).toEqual(["p1"]);
    expect(await store.destroyPayloadKey("p1")).toBe(true);
    expect(await store.destroyPayloadKey("p1")).toBe(false);
    expect(await store.readablePackagesOf("alice", 10)).toEqual([]);
    const erased = await store.packageEntry("p1");
    expect(erased?.header).toEqual(first.header);
    expect(erased?.payload).toEqual({ ciphertext: "iv.p1", kid: "k1" });
  });

  it("lists kept packages captured before a time, oldest first, after a cursor", async () => {
    const store = await factory();
    let previous = genesisLinkOf("node-1");
    const at = [30, 10, 20, 20, 40];
    for (const [i, t] of at.entries()) {
      const entry = packageEntry(`p${i}`, i + 1, { at: t, previousLink: previous });
      await store.append(entry);
      previous = entry.link;
    }
    const ids = (entries: ChainEntry[]) => entries.map((e) => e.packageIds[0]);
    expect(ids(await store.keptPackages(40, 10))).toEqual(["p1", "p2", "p3", "p0"]);
    expect(ids(await store.keptPackages(40, 2))).toEqual(["p1", "p2"]);
    expect(ids(await store.keptPackages(40, 10, { at: 20, id: "p2" }))).toEqual(["p3", "p0"]);
    expect(await codeOf(store.keptPackages(-1, 10))).toBe("VALIDATION_FAILED");
  });
}

function describeCheckpoints(factory: Factory): void {
  it("keeps one checkpoint per chain and sequence, ascending", async () => {
    const store = await factory();
    await store.putCheckpoint(checkpoint(200));
    await store.putCheckpoint(checkpoint(100));
    await store.putCheckpoint(checkpoint(100, "node-2"));
    expect(await codeOf(store.putCheckpoint(checkpoint(100)))).toBe("CONFLICT");
    expect((await store.checkpoints("node-1")).map((c) => c.sequence)).toEqual([100, 200]);
    expect(await store.checkpoints("node-1")).toEqual([checkpoint(100), checkpoint(200)]);
    expect(await store.checkpoints("node-3")).toEqual([]);
  });
}
