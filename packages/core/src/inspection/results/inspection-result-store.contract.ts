import { describe, expect, it } from "vitest";
import { codeOf } from "../../kernel/error-code.test-support.js";
import type { InspectionFinding, InspectionResult, InspectionVerdict } from "../inspection-result.js";
import type { InspectionResultQuery, InspectionResultStore } from "./inspection-result-store.js";

const FAIL_FINDING: InspectionFinding = {
  check: "FACT_ACCURACY",
  kind: "MISMATCH",
  reason: "VALUE_DIFFERS",
  detail: 'request.subject reads "alicf", its source request.subject says "alice"',
  location: { prompt: 0, layer: "L1", part: "user", line: 2 },
  factId: "F1",
  key: "request.subject",
};
const UNVERIFIABLE_FINDING: InspectionFinding = {
  check: "SEAL_INTEGRITY",
  kind: "UNVERIFIABLE",
  reason: "NOT_SEALED",
  detail: "the package carries no seal",
};

function result(
  packageId: string,
  capturedAt: number,
  verdict: InspectionVerdict,
  extra: Partial<InspectionResult> = {},
): InspectionResult {
  const findings =
    verdict === "FAIL" ? [FAIL_FINDING] : verdict === "INCOMPLETE" ? [UNVERIFIABLE_FINDING] : [];
  return {
    packageId,
    capturedAt,
    inspectedAt: capturedAt + 10,
    inspectorVersion: "prompt-inspector/1",
    dictionaryVersion: "v20@9d87255aa312",
    layout: "v20-dictionary-blocks",
    verdict,
    checks: [{ check: "SEAL_INTEGRITY", status: "PASS", items: 3 }],
    findings,
    ...extra,
  };
}

async function seeded(factory: Factory): Promise<InspectionResultStore> {
  const store = await factory();
  await store.save(result("p1", 1_000, "PASS"));
  await store.save(result("p2", 2_000, "FAIL"));
  await store.save(result("p3", 3_000, "INCOMPLETE"));
  await store.save(result("p4", 4_000, "NOT_APPLICABLE", { layout: "v19-sections" }));
  await store.save(
    result("p2", 2_000, "PASS", { inspectorVersion: "prompt-inspector/2", inspectedAt: 9_000 }),
  );
  return store;
}

const ids = async (store: InspectionResultStore, q: Partial<InspectionResultQuery>) =>
  (await store.list({ limit: 50, ...q })).results.map(
    (r) => `${r.packageId}@${r.inspectorVersion.slice(-1)}`,
  );

type Factory = () => Promise<InspectionResultStore> | InspectionResultStore;

/**
 * The behaviour every InspectionResultStore adapter must show. `factory` returns a fresh, empty store.
 */
export function describeInspectionResultStoreContract(name: string, factory: Factory): void {
  describe(`${name} (InspectionResultStore contract)`, () => {
    it("keeps one result per package and inspector version: a re-inspection replaces it, a new version adds one", async () => {
      const store = await seeded(factory);
      expect(await store.get("p2", "prompt-inspector/1")).toEqual(result("p2", 2_000, "FAIL"));
      await store.save(result("p2", 2_000, "PASS", { inspectedAt: 5_000 }));
      expect((await store.get("p2", "prompt-inspector/1"))?.verdict).toBe("PASS");
      expect((await store.get("p2", "prompt-inspector/2"))?.inspectedAt).toBe(9_000);
      expect(await store.get("p2", "prompt-inspector/3")).toBeUndefined();
      expect(await store.get("nope", "prompt-inspector/1")).toBeUndefined();
    });

    it("answers a package's latest result, and which packages a version has inspected", async () => {
      const store = await seeded(factory);
      expect((await store.latest("p2"))?.inspectorVersion).toBe("prompt-inspector/2");
      expect((await store.latest("p1"))?.verdict).toBe("PASS");
      expect(await store.latest("nope")).toBeUndefined();
      expect(await store.inspected(["p1", "p2", "p9"], "prompt-inspector/1")).toEqual(new Set(["p1", "p2"]));
      expect(await store.inspected(["p1", "p2"], "prompt-inspector/2")).toEqual(new Set(["p2"]));
      expect(await store.inspected([], "prompt-inspector/1")).toEqual(new Set());
    });

    it("lists newest capture first, filtered by version, verdict, check, key and period", async () => {
      const store = await seeded(factory);
      expect(await ids(store, {})).toEqual(["p4@1", "p3@1", "p2@2", "p2@1", "p1@1"]);
      expect(await ids(store, { inspectorVersion: "prompt-inspector/1" })).toEqual([
        "p4@1",
        "p3@1",
        "p2@1",
        "p1@1",
      ]);
      expect(await ids(store, { verdict: "FAIL" })).toEqual(["p2@1"]);
      expect(await ids(store, { check: "SEAL_INTEGRITY" })).toEqual(["p3@1"]);
      expect(await ids(store, { key: "request" })).toEqual(["p2@1"]);
      expect(await ids(store, { key: "request.subject" })).toEqual(["p2@1"]);
      expect(await ids(store, { key: "request.sub" })).toEqual([]);
      expect(await ids(store, { from: 2_000, to: 4_000 })).toEqual(["p3@1", "p2@2", "p2@1"]);
    });

    it("a block filter matches a past record's key (`past-record` finds `past-record:<id>`)", async () => {
      const store = await factory();
      const finding: InspectionFinding = {
        ...FAIL_FINDING,
        check: "PAST_RECORD_NOTATION",
        key: "past-record:r7",
      };
      await store.save({ ...result("pr", 1_000, "FAIL"), findings: [finding] });
      expect((await store.list({ key: "past-record", limit: 10 })).results.map((r) => r.packageId)).toEqual([
        "pr",
      ]);
      expect((await store.list({ key: "past-record:r7", limit: 10 })).results.length).toBe(1);
      expect((await store.list({ key: "past-rec", limit: 10 })).results).toEqual([]);
    });

    it("pages with a cursor, without repeating or skipping a result", async () => {
      const store = await seeded(factory);
      const first = await store.list({ limit: 2 });
      expect(first.results.map((r) => r.packageId)).toEqual(["p4", "p3"]);
      const second = await store.list({ limit: 2, after: first.next! });
      expect(second.results.map((r) => `${r.packageId}@${r.inspectorVersion.slice(-1)}`)).toEqual([
        "p2@2",
        "p2@1",
      ]);
      const third = await store.list({ limit: 2, after: second.next! });
      expect(third.results.map((r) => r.packageId)).toEqual(["p1"]);
      expect(third.next).toBeUndefined();
    });

    it("says what a package's latest inspection found, for the retention job", async () => {
      const store = await seeded(factory);
      expect(await store.latestInspectionOutcome("p1")).toBe("NOTHING_WRONG");
      expect(await store.latestInspectionOutcome("p4")).toBe("NOTHING_WRONG");
      expect(await store.latestInspectionOutcome("p3")).toBe("FINDINGS");
      expect(await store.latestInspectionOutcome("p2")).toBe("NOTHING_WRONG");
      await store.save(
        result("p2", 2_000, "ERROR", {
          inspectorVersion: "prompt-inspector/3",
          inspectedAt: 10_000,
          error: { code: "PACKAGE_UNREADABLE", detail: "x" },
        }),
      );
      expect(await store.latestInspectionOutcome("p2")).toBe("FINDINGS");
      expect(await store.latestInspectionOutcome("nope")).toBeUndefined();
    });

    it("refuses bad queries and results with VALIDATION_FAILED; answers are copies", async () => {
      const store = await seeded(factory);
      for (const limit of [0, 501, 1.5, Number.NaN])
        expect(await codeOf(store.list({ limit }))).toBe("VALIDATION_FAILED");
      expect(await codeOf(store.list({ limit: 5, from: -1 }))).toBe("VALIDATION_FAILED");
      expect(
        await codeOf(
          store.list({ limit: 5, after: { capturedAt: 1, packageId: "", inspectorVersion: "v" } }),
        ),
      ).toBe("VALIDATION_FAILED");
      expect(await codeOf(store.list({ limit: 5, verdict: "x".repeat(300) as InspectionVerdict }))).toBe(
        "VALIDATION_FAILED",
      );
      expect(await codeOf(store.save(result("", 1, "PASS")))).toBe("VALIDATION_FAILED");
      expect(await codeOf(store.save(result("p9", -5, "PASS")))).toBe("VALIDATION_FAILED");
      expect(
        await codeOf(
          store.inspected(
            Array.from({ length: 501 }, (_, i) => `p${i}`),
            "v",
          ),
        ),
      ).toBe("VALIDATION_FAILED");
      const read = await store.get("p2", "prompt-inspector/1");
      (read!.findings as InspectionFinding[]).length = 0;
      expect((await store.get("p2", "prompt-inspector/1"))!.findings).toHaveLength(1);
    });

    it("keeps hostile text as data: a package id with operators and a finding with markup round-trip unchanged", async () => {
      const store = await factory();
      const hostile = result('{"$gt":""}', 7, "FAIL", {
        findings: [{ ...FAIL_FINDING, detail: "<script>x</script> $where" }],
      });
      await store.save(hostile);
      expect(await store.get('{"$gt":""}', "prompt-inspector/1")).toEqual(hostile);
      expect(await store.get("", "prompt-inspector/1")).toBeUndefined();
    });
  });
}
