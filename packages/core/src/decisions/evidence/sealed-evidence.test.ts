import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryDistributedLock } from "../../kernel/coordination/in-memory-distributed-lock.js";
import { EvidenceRetention, RETENTION_LOCK } from "./evidence-retention.js";
import type { LatestInspectionOutcome } from "./inspection-outcomes.js";
import { canonicalJson, sha256Hex } from "../../prompts/hashing/canonical-json.js";
import { parsePromptInput } from "../../prompts/input/prompt-input.js";
import { EvidenceCapture, sampleBucketOf } from "./evidence-capture.js";
import { EvidenceErasure } from "./evidence-erasure.js";
import type { EvidencePackage } from "./evidence-package.js";
import { verifyPackageSeal } from "./package-seal-check.js";
import { evidencePackageOf, sealedEvidenceFixture } from "./sealed-evidence.fixture.js";
import { sealPackage } from "./sealed-package.js";
import { verifyEvidenceChain } from "./evidence-chain-verifier.js";

function pkg(
  id: string,
  o: Partial<EvidencePackage["metadata"]> & { correlationId?: string } = {},
): EvidencePackage {
  const { correlationId, ...metadata } = o;
  return evidencePackageOf(id, {
    ...(correlationId === undefined ? {} : { correlationId }),
    prompts: [
      { layer: "L1", system: "system text", user: `user text of ${id}` },
      { layer: "L2", system: "system text 2", user: "user text 2" },
    ],
    subject: "alice",
    metadata,
  });
}

describe("a sealed package", () => {
  it("hashes each prompt as sent and the canonical context, and the header under the package hash", () => {
    const sealed = sealPackage(pkg("p1"), "node-1");
    expect(sealed.header.prompts[0]).toEqual({
      layer: "L1",
      systemSha256: sha256Hex("system text"),
      userSha256: sha256Hex("user text of p1"),
    });
    expect(sealed.header.inputSha256).toBe(sha256Hex(canonicalJson(sealed.payload!.input as never)));
    expect(sealed.packageHash).toBe(sha256Hex(canonicalJson(sealed.header as never)));
    expect(sealed.header).toMatchObject({
      id: "p1",
      eventId: "evt-p1",
      correlationId: "corr-p1",
      instanceId: "node-1",
    });
    expect(verifyPackageSeal(sealed)).toEqual({
      intact: true,
      reason: null,
      detail: null,
      payloadChecked: true,
    });
  });

  it("breaks on any change: a prompt, the context, a header field, the hash", () => {
    const sealed = sealPackage(pkg("p1"), "node-1");
    const payload = sealed.payload!;
    const prompt = { ...payload.prompts[1]!, user: "user text 2." };
    expect(
      verifyPackageSeal({ ...sealed, payload: { ...payload, prompts: [payload.prompts[0]!, prompt] } }),
    ).toMatchObject({
      intact: false,
      reason: "PROMPT_HASH_MISMATCH",
      detail: "1.user",
    });
    const input = parsePromptInput({ eventId: "evt-p1", request: { subject: "alicf" } });
    expect(verifyPackageSeal({ ...sealed, payload: { ...payload, input } }).reason).toBe(
      "CONTEXT_HASH_MISMATCH",
    );
    const header = { ...sealed.header, metadata: { ...sealed.header.metadata, stage: "SHADOW" as const } };
    expect(verifyPackageSeal({ ...sealed, header }).reason).toBe("PACKAGE_HASH_MISMATCH");
    expect(
      verifyPackageSeal({ ...sealed, payload: { ...payload, prompts: [payload.prompts[0]!] } }).reason,
    ).toBe("PROMPT_COUNT_MISMATCH");
    expect(verifyPackageSeal({ header: sealed.header, packageHash: sealed.packageHash })).toMatchObject({
      intact: true,
      payloadChecked: false,
    });
  });
});

describe("the capture rules", () => {
  it("seal the first N after a start and after each bundle change, then a stable sample", () => {
    const capture = new EvidenceCapture({ enabled: true, fullCaptureAfterChange: 2, samplePercent: 1 });
    const inSample = Array.from({ length: 400 }, (_, i) => `c${i}`).find((c) => sampleBucketOf(c) < 1)!;
    const outOfSample = Array.from({ length: 400 }, (_, i) => `c${i}`).find((c) => sampleBucketOf(c) >= 1)!;
    const decide = (id: string, bundleHash = "h19", correlationId = outOfSample) =>
      capture.decide(pkg(id, { bundleHash, correlationId }));
    expect([decide("a"), decide("b"), decide("c")]).toEqual([true, true, false]);
    expect(decide("d", "h19", inSample)).toBe(true);
    expect([decide("e", "h20"), decide("f", "h20"), decide("g", "h20")]).toEqual([true, true, false]);
    expect(capture.decide(pkg("s", { stage: "SHADOW", correlationId: outOfSample }))).toBe(true);
    expect(sampleBucketOf(inSample)).toBe(sampleBucketOf(inSample));
  });

  it("seal nothing when capture is off (or Enterprise)", () => {
    const capture = new EvidenceCapture({ enabled: false, fullCaptureAfterChange: 1000, samplePercent: 100 });
    expect(capture.decide(pkg("a"))).toBe(false);
  });
});

describe("SealedEvidence", () => {
  it("records every decision; a sampled-out one answers sealed: false with no payload", async () => {
    const clock = new ManualClock(5_000);
    const f = sealedEvidenceFixture({ clock, capture: { fullCaptureAfterChange: 1, samplePercent: 1 } });
    const correlationId = Array.from({ length: 400 }, (_, i) => `c${i}`).find((c) => sampleBucketOf(c) >= 1)!;
    expect(await f.sealed.record(pkg("p1"))).toEqual({ sealed: true });
    expect(await f.sealed.record(pkg("p2", { correlationId }))).toEqual({ sealed: false });
    const unsealed = await f.sealed.read("p2", { principal: "admin" });
    expect(unsealed).toMatchObject({ record: { id: "p2", sealed: false }, seal: null, payload: null });
    expect(await f.store.packageEntry("p2")).toBeUndefined();
    expect(await f.sealed.read("nope", { principal: "admin" })).toBeUndefined();
  });

  it("reads a package with its seal checked and its prompts opened, an audited read", async () => {
    const clock = new ManualClock(5_000);
    const f = sealedEvidenceFixture({ clock });
    await f.sealed.record(pkg("p1"));
    const read = await f.sealed.read("p1", { principal: "admin", remoteAddress: "203.0.113.1" });
    expect(read?.payload?.prompts[0]?.user).toBe("user text of p1");
    expect(read?.seal).toMatchObject({
      instanceId: "node-1",
      sequence: 1,
      intact: true,
      erased: false,
      checkpoint: null,
    });
    expect(f.audit.events().filter((e) => e.type === "evidence.package.read")).toMatchObject([
      { principal: "admin", remoteAddress: "203.0.113.1", data: { packageId: "p1" } },
    ]);
    // The stored payload is ciphertext: no prompt text in the store.
    expect(JSON.stringify(await f.store.packageEntry("p1"))).not.toContain("user text of p1");
  });

  it("erases a user's payloads by destroying their keys; the chain records it and stays intact", async () => {
    const clock = new ManualClock(5_000);
    const f = sealedEvidenceFixture({ clock });
    await f.sealed.record(pkg("p1"));
    await f.sealed.record(pkg("p2", { userId: "bob" }));
    await f.sealed.record(pkg("p3"));
    const erasure = new EvidenceErasure({
      store: f.store,
      chain: f.chain,
      audit: f.audit,
      now: () => clock.now(),
    });
    expect(await erasure.eraseUser("alice", "admin")).toBe(2);
    const read = await f.sealed.read("p1", { principal: "admin" });
    expect(read).toMatchObject({ payload: null, seal: { intact: true, erased: true } });
    expect((await f.sealed.read("p2", { principal: "admin" }))?.payload).not.toBeNull();
    const entries = await f.store.entries("node-1", 0, 100);
    expect(entries.at(-1)).toMatchObject({ kind: "ERASURE", sequence: 4, packageIds: ["p1", "p3"] });
    const verdict = verifyEvidenceChain({ instanceId: "node-1", entries, checkpoints: [], keys: [] });
    expect(verdict).toMatchObject({ intact: true, entries: 4 });
    expect(f.audit.events().filter((e) => e.type === "evidence.erased")).toMatchObject([
      { data: { erased: 2 } },
    ]);
  });
});

describe("SealedEvidence when sealing fails", () => {
  it("still keeps the decision's record (sealed: false) and throws the sealing error", async () => {
    const clock = new ManualClock(5_000);
    const f = sealedEvidenceFixture({ clock });
    const broken = Object.create(f.store) as typeof f.store;
    broken.append = () => Promise.reject(new Error("store down"));
    const g = sealedEvidenceFixture({ clock, store: broken, keys: f.keys });
    await expect(g.sealed.record(pkg("p1"))).rejects.toThrow("store down");
    expect(await f.store.record("p1")).toMatchObject({ id: "p1", sealed: false });
  });
});

const DAY = 86_400_000;

function agedPkg(id: string, at: number): EvidencePackage {
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

async function retentionSetup(outcomes?: Record<string, LatestInspectionOutcome>) {
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
    await f.sealed.record(agedPkg(id, now - age * DAY));
  return { clock, f, lock, retention };
}

describe("EvidenceRetention", () => {
  it("deletes past 90 days, past 30 when the latest inspection was clean; records each deletion in the chain", async () => {
    const { f, retention } = await retentionSetup({ clean: "CLEAN", findings: "FINDINGS", young: "CLEAN" });
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
    const { f, retention } = await retentionSetup();
    expect(await retention.runOnce()).toMatchObject({ ran: true, deleted: 1 });
    expect((await f.store.packageEntry("clean"))?.header).toBeDefined();
  });

  it("does nothing while another instance holds the lock", async () => {
    const { lock, retention } = await retentionSetup();
    await lock.tryAcquire(RETENTION_LOCK, "node-2:retention", 60_000);
    expect(await retention.runOnce()).toEqual({ ran: false, deleted: 0, recordsDeleted: 0 });
  });
});
