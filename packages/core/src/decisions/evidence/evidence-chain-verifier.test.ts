import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { type ChainEntry, linkOf } from "./chain-entry.js";
import { packageHashOf } from "./sealed-package.js";
import { EvidenceChainVerifier, verifyEvidenceChain } from "./evidence-chain-verifier.js";
import type { EvidencePackage } from "./evidence-package.js";
import { InMemorySealedEvidenceStore } from "./in-memory-sealed-evidence-store.js";
import { SealedEvidenceStore } from "./sealed-evidence-store.js";
import { createPlatform } from "../../kernel/platform.js";
import { KeyRing } from "../../kernel/keys/key-ring.js";
import { evidencePackageOf, sealedEvidenceFixture } from "./sealed-evidence.fixture.js";

function pkg(id: string, at: number, userId = "alice"): EvidencePackage {
  return evidencePackageOf(id, { at, subject: userId, metadata: { userId } });
}

/** A chain of `count` sealed packages, checkpointed every 4 entries. */
async function sealedChain(count: number) {
  const clock = new ManualClock(1_000);
  const f = sealedEvidenceFixture({ clock, checkpointEvery: 4 });
  for (let i = 1; i <= count; i++) await f.sealed.record(pkg(`p${i}`, clock.now() + i));
  const verify = async () =>
    verifyEvidenceChain({
      instanceId: "node-1",
      entries: await f.store.entries("node-1", 0, 1000),
      checkpoints: await f.store.checkpoints("node-1"),
      keys: await f.signer.publicKeys(),
    });
  // The store's own entries, to tamper with as someone with write access to the store would.
  const raw = (f.store as unknown as { chainsByName: Map<string, ChainEntry[]> }).chainsByName.get("node-1")!;
  return { f, verify, raw: raw as { -readonly [K in keyof ChainEntry]: ChainEntry[K] }[] };
}

describe("the evidence chain", () => {
  it("verifies intact, its checkpoints signed by the key ring's evidence.checkpoint key", async () => {
    const { f, verify } = await sealedChain(10);
    const result = await verify();
    expect(result).toMatchObject({
      intact: true,
      entries: 10,
      checkpointsVerified: 2,
      coveredTo: 8,
      problem: null,
    });
    expect(result.head?.sequence).toBe(10);
    const checkpoints = await f.store.checkpoints("node-1");
    expect(checkpoints.map((c) => c.kid)).toEqual([
      (await f.signer.publicKeys())[0]!.kid,
      checkpoints[0]!.kid,
    ]);
  });

  it("verifies checkpoints signed by a rotated key with the key kept for verification, and names an unknown kid", async () => {
    const { f, verify } = await sealedChain(4);
    const [old] = await f.keys.keys("evidence.checkpoint");
    const make = () => ({ ...old!, kid: "rotated" });
    // The rotated-in key's material does not matter here: only checkpoints after the rotation use it.
    expect(await f.keys.rotate("evidence.checkpoint", old!.kid, make, Number.MAX_SAFE_INTEGER)).toBe(true);
    for (let i = 5; i <= 8; i++) await f.sealed.record(pkg(`p${i}`, 2_000 + i));
    const checkpoints = await f.store.checkpoints("node-1");
    expect(checkpoints.map((c) => c.kid)).toEqual([old!.kid, "rotated"]);
    expect(await verify()).toMatchObject({ intact: true, checkpointsVerified: 2, coveredTo: 8 });
    const withoutOld = verifyEvidenceChain({
      instanceId: "node-1",
      entries: await f.store.entries("node-1", 0, 100),
      checkpoints,
      keys: (await f.signer.publicKeys()).filter((k) => k.kid !== old!.kid),
    });
    expect(withoutOld.problem).toEqual({ kind: "CHECKPOINT_INVALID", sequence: 4, packageId: null });
  });

  it("catches an edited package, even when its hash and link are recomputed up to the head", async () => {
    const { raw, verify } = await sealedChain(6);
    const edited = { ...raw[2]!.header!, metadata: { ...raw[2]!.header!.metadata, action: "BLOCK" } };
    raw[2]!.header = edited;
    expect((await verify()).problem).toEqual({ kind: "PACKAGE_EDITED", sequence: 3, packageId: "p3" });
    // The forger recomputes the package hash and every link after it: the signed checkpoint at 4 disagrees.
    let previous = raw[1]!.link;
    for (const entry of raw.slice(2)) {
      if (entry.header) entry.entryHash = packageHashOf(entry.header);
      entry.link = linkOf(previous, entry.entryHash, entry.sequence);
      previous = entry.link;
    }
    expect((await verify()).problem).toEqual({ kind: "CHECKPOINT_MISMATCH", sequence: 4, packageId: null });
  });

  it("catches a deleted entry as the first missing link, and a cut tail by its checkpoint", async () => {
    const { raw, verify } = await sealedChain(9);
    raw.splice(4, 1);
    expect((await verify()).problem).toEqual({ kind: "MISSING_LINK", sequence: 5, packageId: null });
    const cut = await sealedChain(9);
    cut.raw.splice(6);
    expect((await cut.verify()).problem).toEqual({ kind: "TAIL_MISSING", sequence: 7, packageId: null });
  });

  it("catches reordered entries (sequences swapped) as a broken link", async () => {
    const { raw, verify } = await sealedChain(6);
    const [a, b] = [raw[1]!, raw[2]!];
    [a.sequence, b.sequence] = [b.sequence, a.sequence];
    raw.sort((x, y) => x.sequence - y.sequence);
    expect((await verify()).problem).toMatchObject({ kind: "BROKEN_LINK", sequence: 2 });
  });

  it("catches a package dropped without a deletion entry, and a forged checkpoint", async () => {
    const { f, raw, verify } = await sealedChain(5);
    await f.store.dropPackage("p2");
    expect((await verify()).problem).toEqual({ kind: "UNRECORDED_DELETION", sequence: 2, packageId: "p2" });
    const forged = await sealedChain(5);
    const store = forged.f.store as unknown as { checkpointsByName: Map<string, { link: string }[]> };
    store.checkpointsByName.get("node-1")![0]!.link = raw[0]!.link;
    expect((await forged.verify()).problem).toMatchObject({ kind: "CHECKPOINT_INVALID", sequence: 4 });
  });

  it("reads a chain page by page to the same verdict", async () => {
    const { f } = await sealedChain(7);
    const verifier = new EvidenceChainVerifier(
      "node-1",
      await f.store.checkpoints("node-1"),
      await f.signer.publicKeys(),
    );
    let after = 0;
    for (;;) {
      const page = await f.store.entries("node-1", after, 3);
      verifier.feed(page);
      if (page.length < 3) break;
      after = page.at(-1)!.sequence;
    }
    expect(verifier.finish()).toMatchObject({ intact: true, entries: 7, coveredTo: 4 });
  });

  it("verifies a platform's store locally, opening payloads: a changed prompt is caught", async () => {
    const platform = createPlatform({
      register: (c) => c.registerInstance(SealedEvidenceStore, new InMemorySealedEvidenceStore()),
    });
    const f = sealedEvidenceFixture({
      clock: new ManualClock(1_000),
      store: platform.resolve(SealedEvidenceStore),
      keys: platform.container.resolve(KeyRing),
    });
    for (let i = 1; i <= 3; i++) await f.sealed.record(pkg(`p${i}`, 1_000 + i));
    expect(await EvidenceChainVerifier.verifyStore(platform.container)).toMatchObject([
      { intact: true, entries: 3 },
    ]);
    // Someone re-encrypts p2 under its own key with another prompt: the hashes its header seals disagree.
    const other = sealedEvidenceFixture({
      clock: new ManualClock(1_000),
      keys: platform.container.resolve(KeyRing),
    });
    await other.sealed.record({
      ...pkg("p2", 1_002),
      prompts: [{ layer: "L1", system: "system text", user: "other" }],
    });
    const forged = (await other.store.packageEntry("p2"))!;
    const raw = (f.store as unknown as { packages: Map<string, { payload: unknown }> }).packages;
    raw.get("p2")!.payload = forged.payload;
    expect((await EvidenceChainVerifier.verifyStore(platform.container))[0]!.problem).toEqual({
      kind: "PAYLOAD_EDITED",
      sequence: 2,
      packageId: "p2",
    });
  });

  it("lets two writers of one chain interleave without a fork (compare-and-set on the slot)", async () => {
    const clock = new ManualClock(1_000);
    const store = new InMemorySealedEvidenceStore();
    const one = sealedEvidenceFixture({ clock, store });
    const two = sealedEvidenceFixture({ clock, store, keys: one.keys });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? one : two).sealed.record(pkg(`p${i}`, 1_000 + i))),
    );
    const entries = await store.entries("node-1", 0, 100);
    expect(entries.map((e) => e.sequence)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const result = verifyEvidenceChain({
      instanceId: "node-1",
      entries,
      checkpoints: await store.checkpoints("node-1"),
      keys: await one.signer.publicKeys(),
    });
    expect(result).toMatchObject({ intact: true, entries: 12 });
  });
});
