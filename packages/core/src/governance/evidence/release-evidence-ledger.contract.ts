import { describe, expect, it } from "vitest";
import { codeOf } from "../../kernel/error-code.test-support.js";
import type { EvidenceKind, NewEvidenceRecord, ReleaseEvidenceLedger } from "./release-evidence-ledger.js";

const HASH_V20 = `sha256:${"2".repeat(64)}`;

function evidence(recordedAt: number, overrides: Partial<NewEvidenceRecord> = {}): NewEvidenceRecord {
  return {
    kind: "CHANGE_RECORD",
    promptKey: "security-decision",
    promptVersion: "v20",
    bundleHash: HASH_V20,
    recordedBy: "alice",
    recordedAt,
    content: {
      summary: "tighten the injection rules",
      ticket: "SEC-1042",
      reviewers: ["bob", "carol"],
      risk: { level: "medium", score: 0.4, notes: null },
    },
    contentHash: "c".repeat(64),
    ...overrides,
  };
}

/**
 * Runs `change` on an answer the ledger gave. A ledger may answer frozen copies (the change throws)
 * or its own copies: either way nothing recorded may change.
 */
function tryToChange(change: () => void): void {
  try {
    change();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}

/**
 * The behaviour every ReleaseEvidenceLedger adapter must show. `factory` returns a fresh, empty
 * ledger. The ledger is append-only: a record, once written, answers the same forever.
 */
export function describeReleaseEvidenceLedgerContract(
  name: string,
  factory: () => Promise<ReleaseEvidenceLedger> | ReleaseEvidenceLedger,
): void {
  describe(`ReleaseEvidenceLedger contract: ${name}`, () => {
    describeRecording(factory);
    describeListing(factory);
  });
}

function describeRecording(factory: () => Promise<ReleaseEvidenceLedger> | ReleaseEvidenceLedger): void {
  it("records a piece of evidence with a fresh id and answers it as given, by id too", async () => {
    const ledger = await factory();
    const given = evidence(1_000);
    const a = await ledger.record(given);
    const b = await ledger.record(evidence(2_000, { kind: "EVALUATION_RUN", content: { cases: [] } }));
    expect(a).toEqual({ ...given, id: expect.any(String) });
    expect(a.id.length).toBeGreaterThan(0);
    expect(a.id).not.toBe(b.id);
    expect(await ledger.get(a.id)).toEqual(a);
    expect(await ledger.get(b.id)).toEqual(b);
  });

  it("answers undefined for an id it never gave, whatever its shape", async () => {
    const ledger = await factory();
    const recorded = await ledger.record(evidence(1));
    for (const id of ["", "ev-999999", "0".repeat(24), "not an id", `${recorded.id}x`, "__proto__"])
      expect(await ledger.get(id), JSON.stringify(id)).toBeUndefined();
  });

  it("is append-only: the same evidence twice is two records, and later ones change no earlier one", async () => {
    const ledger = await factory();
    const first = await ledger.record(evidence(1_000));
    const second = await ledger.record(evidence(1_000));
    expect(second.id).not.toBe(first.id);
    await ledger.record(evidence(3_000, { content: { summary: "another change" } }));
    expect(await ledger.get(first.id)).toEqual(first);
    expect(await ledger.list({ promptKey: "security-decision" })).toHaveLength(3);
  });

  it("keeps its content whole: nested objects, arrays, numbers, null, booleans and any text", async () => {
    const ledger = await factory();
    const content = {
      cases: [
        { id: "PI-01", passed: true, latencyMs: 812.5, tokens: 1_234 },
        { id: "PI-02", passed: false, latencyMs: 0, tokens: 0, note: 'sh\u00e9ll \u{1F512} "quoted"\n' },
      ],
      summary: { passRate: 0.5, lowerBound: 0.0945, method: "wilson", k: 3, grader: null },
      empty: {},
      none: [],
    };
    const recorded = await ledger.record(evidence(1, { kind: "EVALUATION_RUN", content }));
    expect((await ledger.get(recorded.id))?.content).toEqual(content);
  });

  it("keeps its own copies and the id it assigns, never one smuggled into the input", async () => {
    const ledger = await factory();
    const given = { ...evidence(1), id: "chosen", _id: "chosen" } as NewEvidenceRecord;
    const recorded = await ledger.record(given);
    expect(recorded.id).not.toBe("chosen");
    (given.content.reviewers as string[]).push("mallory");
    tryToChange(() => ((recorded.content as { ticket: string }).ticket = "SEC-0"));
    const listed = await ledger.list({ promptKey: "security-decision" });
    tryToChange(() => ((listed[0] as { bundleHash: string }).bundleHash = "sha256:other"));
    const read = await ledger.get(recorded.id);
    expect(read).toEqual({ ...evidence(1), id: recorded.id });
    expect(read).not.toHaveProperty("_id");
    expect(await ledger.get("chosen")).toBeUndefined();
  });
}

function describeListing(factory: () => Promise<ReleaseEvidenceLedger> | ReleaseEvidenceLedger): void {
  it("answers newest first: by time, then the later recorded of one instant", async () => {
    const ledger = await factory();
    for (const [summary, at] of [
      ["e1", 1_000],
      ["e2", 3_000],
      ["e3", 2_000],
      ["e4", 3_000],
      ["e5", 3_000],
    ] as const)
      await ledger.record(evidence(at, { content: { summary } }));
    const listed = await ledger.list({ promptKey: "security-decision" });
    expect(listed.map((r) => r.content.summary)).toEqual(["e5", "e4", "e2", "e3", "e1"]);
  });

  it("narrows by prompt key, version, bundle hash and kind, each and together", async () => {
    const ledger = await factory();
    const other = `sha256:${"9".repeat(64)}`;
    const rows: [number, Partial<NewEvidenceRecord>][] = [
      [1, {}],
      [2, { kind: "EVALUATION_RUN" }],
      [3, { bundleHash: other }],
      [4, { promptVersion: "v19", bundleHash: other, kind: "EVALUATION_RUN" }],
      [5, { promptKey: "mfa-step-up" }],
      [6, { kind: "MODEL_COMPATIBILITY" as EvidenceKind }],
    ];
    for (const [at, o] of rows) await ledger.record(evidence(at, o));
    const at = async (q: Parameters<ReleaseEvidenceLedger["list"]>[0]) =>
      (await ledger.list(q)).map((r) => r.recordedAt);
    const key = "security-decision";
    expect(await at({ promptKey: key })).toEqual([6, 4, 3, 2, 1]);
    expect(await at({ promptKey: "mfa-step-up" })).toEqual([5]);
    expect(await at({ promptKey: "unknown" })).toEqual([]);
    expect(await at({ promptKey: key, promptVersion: "v19" })).toEqual([4]);
    expect(await at({ promptKey: key, bundleHash: other })).toEqual([4, 3]);
    expect(await at({ promptKey: key, kind: "EVALUATION_RUN" })).toEqual([4, 2]);
    expect(
      await at({ promptKey: key, promptVersion: "v20", bundleHash: HASH_V20, kind: "EVALUATION_RUN" }),
    ).toEqual([2]);
    expect(
      await at({ promptKey: key, promptVersion: "v20", bundleHash: other, kind: "CHANGE_RECORD" }),
    ).toEqual([3]);
  });

  it("matches a filter's value as a value: an operator smuggled into a query matches nothing", async () => {
    const ledger = await factory();
    await ledger.record(evidence(1));
    const operator = { $ne: null } as unknown as string;
    expect(await ledger.list({ promptKey: operator })).toEqual([]);
    expect(await ledger.list({ promptKey: "security-decision", bundleHash: operator })).toEqual([]);
    expect(
      await ledger.list({ promptKey: "security-decision", promptVersion: { $gt: "" } as never }),
    ).toEqual([]);
  });

  it("bounds the answer by the limit (default 100, at most 1,000) and refuses another", async () => {
    const ledger = await factory();
    // Recorded together (distinct times order them): one round trip's wait, not 105.
    await Promise.all(Array.from({ length: 105 }, (_, i) => ledger.record(evidence(i + 1))));
    const key = "security-decision";
    expect(await ledger.list({ promptKey: key })).toHaveLength(100);
    expect((await ledger.list({ promptKey: key, limit: 2 })).map((r) => r.recordedAt)).toEqual([105, 104]);
    expect(await ledger.list({ promptKey: key, limit: 1_000 })).toHaveLength(105);
    for (const limit of [0, -1, 1.5, 1_001, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(await codeOf(ledger.list({ promptKey: key, limit })), String(limit)).toBe("VALIDATION_FAILED");
    }
  });
}
