import { describe, expect, it } from "vitest";
import {
  evidencePackageOf,
  sealedEvidenceFixture,
} from "../../decisions/evidence/sealed-evidence.fixture.js";
import { PayloadCipher } from "../../decisions/evidence/payload-cipher.js";
import { InMemoryReleaseEvidenceLedger } from "../../governance/evidence/in-memory-release-evidence-ledger.js";
import { rehearsalSchema } from "../../governance/evidence/rehearsal-content.js";
import { ManualClock } from "../../kernel/clock.js";
import { codeOf } from "../../kernel/error-code.test-support.js";
import type { BundleDefinition } from "../../prompts/bundles/bundle-definition.js";
import { type BundleCatalog, loadBundleCatalog } from "../../prompts/manifest/bundle-catalog.js";
import { goldenInput, V19, V20 } from "../corpus/clean-packages.fixture.js";
import { BundleRehearsal, REHEARSAL_AUDIT_EVENT } from "./bundle-rehearsal.js";
import { REHEARSAL_CHECKS } from "./rehearse-package.js";

const catalog = loadBundleCatalog();
const actor = { username: "root", correlationId: "corr-r" };

/** A v20 bundle that writes the subject one letter off: a render the checks must catch. */
function misdrawingCatalog(): BundleCatalog {
  const real = catalog.runnable(V20);
  const bundle: BundleDefinition = Object.assign(Object.create(Object.getPrototypeOf(real)), real, {
    render: (
      input: Parameters<BundleDefinition["render"]>[0],
      profile: Parameters<BundleDefinition["render"]>[1],
    ) => {
      const r = real.render(input, profile);
      return { ...r, user: r.user.replace("subject: alice", "subject: alicf") };
    },
  });
  return {
    ...catalog,
    find: (v) => (v === V20 ? { ...catalog.find(V20)!, bundle } : catalog.find(v)),
    runnable: (v) => (v === V20 ? bundle : catalog.runnable(v)),
  };
}

/** Sealed packages of enforced v19 decisions over the golden contexts, plus what a rehearsal passes over. */
async function sealedStore() {
  const clock = new ManualClock(10_000);
  const f = sealedEvidenceFixture({ clock });
  const golden = (name: string) => goldenInput(catalog, name);
  const at = (n: number) => 5_000 + n;
  await f.sealed.record({ ...evidencePackageOf("early", { at: 100 }), input: golden("internal-read") });
  await f.sealed.record({ ...evidencePackageOf("p1", { at: at(1) }), input: golden("internal-read") });
  await f.sealed.record({ ...evidencePackageOf("p2", { at: at(2) }), input: golden("partly-known") });
  await f.sealed.record({
    ...evidencePackageOf("p3", {
      at: at(3),
      prompts: [
        { layer: "L1", system: "s", user: "u" },
        { layer: "L2", system: "s", user: "u" },
      ],
    }),
    input: golden("long-history"),
  });
  await f.sealed.record({
    ...evidencePackageOf("masked", { at: at(4), metadata: { redacted: ["request.subject"] } }),
    input: golden("internal-read"),
  });
  await f.sealed.record({
    ...evidencePackageOf("shadow", { at: at(5), metadata: { stage: "SHADOW" } }),
    input: golden("internal-read"),
  });
  await f.sealed.record({ ...evidencePackageOf("erased", { at: at(6) }), input: golden("internal-read") });
  await f.store.destroyPayloadKey("erased");
  return { f, clock };
}

function rehearsalOver(f: Awaited<ReturnType<typeof sealedStore>>["f"], clock: ManualClock, over = catalog) {
  const ledger = new InMemoryReleaseEvidenceLedger();
  const rehearsal = new BundleRehearsal({
    store: f.store,
    cipher: new PayloadCipher({ keys: f.keys, newKid: () => "unused" }),
    catalog: over,
    ledger,
    audit: f.audit,
    clock,
  });
  return { rehearsal, ledger };
}

describe("a counterfactual rehearsal over sealed packages", () => {
  it("re-renders the period's enforced contexts with v20, checks them, and records REHEARSAL evidence", async () => {
    const { f, clock } = await sealedStore();
    const { rehearsal, ledger } = rehearsalOver(f, clock);
    const { rehearsal: r, record } = await rehearsal.run(
      { candidate: V20, from: 1_000, to: 10_000, limit: 100 },
      actor,
    );
    expect(r.packages).toBe(4);
    expect(r.skipped).toEqual({ shadow: 1, erased: 1, unreadable: 0 });
    expect(r.truncated).toBe(false);
    expect(r.verdicts).toEqual({ PASS: 3, FAIL: 0, INCOMPLETE: 1, NOT_APPLICABLE: 0, ERROR: 0 });
    expect(r.checks.map((c) => c.check)).toEqual([...REHEARSAL_CHECKS]);
    // The masked subject cannot be held to its source: unverifiable, never a mismatch.
    expect(r.findings.length).toBeGreaterThan(0);
    expect(r.findings.every((x) => x.packageId === "masked" && x.kind === "UNVERIFIABLE")).toBe(true);
    expect(r.findings[0]).toMatchObject({ check: "FACT_ACCURACY", reason: "REDACTED", layer: "L1" });
    expect(r.findings[0]!.text).toContain("subject");
    expect(r.candidate).toMatchObject({ promptVersion: V20, layout: "v20-dictionary-blocks" });
    expect(rehearsalSchema.safeParse(r).success).toBe(true);
    expect(record).toMatchObject({ kind: "REHEARSAL", promptVersion: V20, recordedBy: "root" });
    expect(record!.bundleHash).toBe(catalog.find(V20)!.manifest.bundleHash);
    expect(await ledger.list({ promptKey: record!.promptKey, kind: "REHEARSAL" })).toHaveLength(1);
    const audit = f.audit.events().filter((e) => e.type === REHEARSAL_AUDIT_EVENT);
    expect(audit).toMatchObject([{ principal: "root", data: { packages: 4, evidenceId: record!.id } }]);
  });

  it("a candidate that misdraws a fact FAILs with the finding on its prompt line", async () => {
    const { f, clock } = await sealedStore();
    const { rehearsal } = rehearsalOver(f, clock, misdrawingCatalog());
    const { rehearsal: r } = await rehearsal.run(
      { candidate: V20, from: 1_000, to: 10_000, limit: 100, record: false },
      actor,
    );
    expect(r.verdicts.FAIL).toBeGreaterThan(0);
    const mismatch = r.findings.find((x) => x.kind === "MISMATCH")!;
    expect(r.findings[0]).toBe(mismatch);
    expect(mismatch).toMatchObject({ reason: "VALUE_DIFFERS", layer: "L1" });
    expect(mismatch.text).toContain("alicf");
    expect(r.checks.find((c) => c.check === "FACT_ACCURACY")!.mismatch).toBeGreaterThan(0);
    expect(r.reasons[0]).toMatchObject({ kind: "MISMATCH", reason: "VALUE_DIFFERS" });
  });

  it("a v19 candidate: the layout checks do not apply; the limit truncates; no record when asked", async () => {
    const { f, clock } = await sealedStore();
    const { rehearsal, ledger } = rehearsalOver(f, clock);
    const { rehearsal: r, record } = await rehearsal.run(
      { candidate: V19, from: 0, to: 10_000, limit: 2, record: false },
      actor,
    );
    expect(r.packages).toBe(2);
    expect(r.truncated).toBe(true);
    expect(r.verdicts.NOT_APPLICABLE).toBe(2);
    expect(r.checks.every((c) => c.notApplicable === 2)).toBe(true);
    expect(record).toBeNull();
    expect(await ledger.list({ promptKey: catalog.find(V19)!.manifest.descriptor.promptKey })).toEqual([]);
  });

  it("a candidate this build does not run is refused before anything is read", async () => {
    const { f, clock } = await sealedStore();
    const { rehearsal } = rehearsalOver(f, clock);
    const refused = rehearsal.run({ candidate: "2099.01.01-v99", from: 0, to: 10_000, limit: 5 }, actor);
    expect(await codeOf(refused)).toBe("PROMPT_BUNDLE_NOT_IN_BUILD");
    expect(f.audit.events().some((e) => e.type === REHEARSAL_AUDIT_EVENT)).toBe(false);
  });
});
