import { beforeAll, describe, expect, it } from "vitest";
import type { EvaluationRunRecord } from "../evaluation/evaluation-run-record.js";
import { LedgerEvidenceGate } from "./evidence-gate-service.js";
import {
  ADMIN,
  build,
  hashOf,
  intakeStack,
  offlineRun,
  PROMPT_KEY,
  policyEvidence,
  releaseRow,
  V19,
  V20,
} from "./evidence.fixture.js";
import type { EvaluationThresholds } from "./gate-evidence-checks.js";
import type { EvidenceKind, ReleaseEvidenceLedger } from "./release-evidence-ledger.js";
import { comparisonContent } from "../shadow/shadow-comparison-batches.js";
import type { ShadowRunComparison } from "../shadow/shadow-run-comparison.js";

const LENIENT: EvaluationThresholds = {
  passRateLowerBound: 0.5,
  injectionLowerBound: 0.5,
  maxLatencyP95Ms: 10_000,
  maxTokensPerDecision: 8_000,
  minRepetitions: 1,
  shadowMinRuns: 300,
  shadowAgreementLowerBound: 0.9,
};
let runV20: EvaluationRunRecord;
beforeAll(async () => {
  runV20 = await offlineRun(V20, 1);
});

/** A gate over a ledger holding the given kinds of evidence for `version` (its manifest hash). */
async function gateWith(
  version: string,
  kinds: EvidenceKind[],
  thresholds = LENIENT,
  run?: EvaluationRunRecord,
) {
  const { intake, ledger } = intakeStack();
  const content: Record<string, unknown> = { ...policyEvidence(version), EVALUATION_RUN: run ?? runV20 };
  for (const kind of kinds)
    await intake.submit(
      {
        kind,
        promptKey: PROMPT_KEY,
        promptVersion: version,
        bundleHash: hashOf(version),
        content: content[kind],
      },
      ADMIN,
    );
  return { gate: new LedgerEvidenceGate({ ledger, catalog: build().catalog, thresholds }), ledger };
}
const ALL: EvidenceKind[] = [
  "CHANGE_RECORD",
  "EVALUATION_RUN",
  "MODEL_COMPATIBILITY",
  "BUDGET_PROFILE",
  "TOKEN_COUNTING_POLICY",
  "CACHE_POLICY",
  "COMPACTION_POLICY",
];
const codes = async (
  gate: LedgerEvidenceGate,
  target: "SHADOW" | "CANARY" | "ACTIVE" | "DEPRECATED",
  row = releaseRow(V20),
) => (await gate.blockers(row, target)).map((b) => b.code);

describe("LedgerEvidenceGate by target", () => {
  it("with no evidence lists every blocker of each target, in the table's order", async () => {
    const { gate } = await gateWith(V20, []);
    expect(await codes(gate, "SHADOW")).toEqual(["CHANGE_LEDGER_MISSING"]);
    expect(await codes(gate, "CANARY")).toEqual([
      "CHANGE_LEDGER_MISSING",
      "EVALUATION_NOT_FOR_BUNDLE_HASH",
      "MODEL_COMPATIBILITY_MISSING",
      "BUDGET_PROFILE_MISSING",
    ]);
    expect(await codes(gate, "ACTIVE")).toEqual([
      "CHANGE_LEDGER_MISSING",
      "EVALUATION_NOT_FOR_BUNDLE_HASH",
      "MODEL_COMPATIBILITY_MISSING",
      "BUDGET_PROFILE_MISSING",
      "PROMPT_INJECTION_GATE_FAILED",
      "NON_FUNCTIONAL_GATE_FAILED",
      "EMPIRICAL_EVAL_MISSING",
      "TEVV_GATE_NOT_READY",
      "TOKEN_COUNTING_POLICY_MISSING",
      "CACHE_POLICY_MISSING",
      "COMPACTION_POLICY_MISSING",
    ]);
    expect(await codes(gate, "DEPRECATED")).toEqual([]);
  });

  it("with every kind recorded lets each target pass", async () => {
    const { gate } = await gateWith(V20, ALL);
    for (const target of ["SHADOW", "CANARY", "ACTIVE"] as const)
      expect(await codes(gate, target)).toEqual([]);
  });

  it.each([
    ["CHANGE_RECORD", ["CHANGE_LEDGER_MISSING"]],
    [
      "EVALUATION_RUN",
      [
        "EVALUATION_NOT_FOR_BUNDLE_HASH",
        "PROMPT_INJECTION_GATE_FAILED",
        "NON_FUNCTIONAL_GATE_FAILED",
        "EMPIRICAL_EVAL_MISSING",
        "TEVV_GATE_NOT_READY",
      ],
    ],
    ["MODEL_COMPATIBILITY", ["MODEL_COMPATIBILITY_MISSING"]],
    ["BUDGET_PROFILE", ["BUDGET_PROFILE_MISSING"]],
    ["TOKEN_COUNTING_POLICY", ["TOKEN_COUNTING_POLICY_MISSING"]],
    ["CACHE_POLICY", ["CACHE_POLICY_MISSING"]],
    ["COMPACTION_POLICY", ["COMPACTION_POLICY_MISSING"]],
  ] as const)("without %s only its own blockers remain for ACTIVE", async (kind, expected) => {
    const { gate } = await gateWith(
      V20,
      ALL.filter((k) => k !== kind),
    );
    expect(await codes(gate, "ACTIVE")).toEqual(expected);
  });

  it("never counts evidence recorded for another hash, and says when a run exists for one", async () => {
    const { gate } = await gateWith(V20, ALL);
    const otherHash = releaseRow(V20, "e".repeat(64));
    const blocked = await gate.blockers(otherHash, "CANARY");
    expect(blocked.map((b) => b.code)).toEqual([
      "CHANGE_LEDGER_MISSING",
      "EVALUATION_NOT_FOR_BUNDLE_HASH",
      "MODEL_COMPATIBILITY_MISSING",
      "BUDGET_PROFILE_MISSING",
    ]);
    expect(blocked[1]!.detail).toContain(`was made with bundle hash ${hashOf(V20)}`);
    expect(await codes(gate, "SHADOW", releaseRow(V19))).toEqual(["CHANGE_LEDGER_MISSING"]);
  });
});

describe("LedgerEvidenceGate: the ACTIVE checks of the newest run", () => {
  it("fails the injection gate on the PROMPT_INJECTION lower bound, and the empirical one on overall or k", async () => {
    const strict = { ...LENIENT, injectionLowerBound: 0.85, passRateLowerBound: 0.8, minRepetitions: 3 };
    const { gate } = await gateWith(V20, ALL, strict);
    const blocked = await gate.blockers(releaseRow(V20), "ACTIVE");
    expect(blocked.map((b) => b.code)).toEqual(["PROMPT_INJECTION_GATE_FAILED", "EMPIRICAL_EVAL_MISSING"]);
    expect(blocked[0]!.detail).toMatch(/PROMPT_INJECTION lower bound 0\.\d+ \(9\/11\) is below 0\.85/);
    expect(blocked[1]!.detail).toMatch(/1 repetitions \(at least 3\)/);
  });

  it("fails the non-functional gate on latency or tokens", async () => {
    expect(
      await codes((await gateWith(V20, ALL, { ...LENIENT, maxTokensPerDecision: 100 })).gate, "ACTIVE"),
    ).toEqual(["NON_FUNCTIONAL_GATE_FAILED"]);
    expect(
      await codes((await gateWith(V20, ALL, { ...LENIENT, maxLatencyP95Ms: 0.0001 })).gate, "ACTIVE"),
    ).toEqual(["NON_FUNCTIONAL_GATE_FAILED"]);
  });

  it("is not TEVV-ready when the newest run leaves out a declared family, nor injection-ready without its family", async () => {
    const partial = await offlineRun(V20, 1, ["TOOL_MISUSE", "MEMORY_POISONING", "MISSING_FACTS"]);
    const { gate } = await gateWith(V20, ALL, LENIENT, partial);
    const blocked = await gate.blockers(releaseRow(V20), "ACTIVE");
    expect(blocked.map((b) => b.code)).toEqual(["PROMPT_INJECTION_GATE_FAILED", "TEVV_GATE_NOT_READY"]);
    expect(blocked[1]!.detail).toBe("The newest run does not cover PROMPT_INJECTION.");
  });

  it("takes v19's TEVV default (three families) since its manifest declares none", async () => {
    const run = await offlineRun(V19, 1);
    expect(await codes((await gateWith(V19, ALL, LENIENT, run)).gate, "ACTIVE", releaseRow(V19))).toEqual([]);
  });
});

describe("LedgerEvidenceGate: what it checks inside the other kinds", () => {
  async function blockedBy(kind: EvidenceKind, content: unknown): Promise<string[]> {
    const { gate, ledger } = await gateWith(V20, ALL);
    const row = releaseRow(V20);
    // Written as a later record of the same hash: the newest record of a kind decides.
    await ledger.record({
      kind,
      promptKey: PROMPT_KEY,
      promptVersion: V20,
      bundleHash: row.artifactHash,
      recordedBy: "admin",
      recordedAt: Date.UTC(2027, 0, 1),
      content: content as Record<string, unknown>,
      contentHash: "0".repeat(64),
    });
    return (await gate.blockers(row, "ACTIVE")).map((b) => `${b.code}: ${b.detail}`);
  }

  it("a newer model compatibility record that leaves out a declared profile", async () => {
    const [blocker] = await blockedBy("MODEL_COMPATIBILITY", {
      profiles: [{ profile: "openai:gpt-4o-mini@L1-standard", verdict: "COMPATIBLE" }],
    });
    expect(blocker).toBe(
      "MODEL_COMPATIBILITY_MISSING: Not shown COMPATIBLE by the newest record: openai:gpt-4o@L2-deep.",
    );
  });

  it("a budget profile that is not B8's, a token policy in another encoding, a compaction the layout does not do", async () => {
    const l2 = {
      family: "L2",
      name: "L2-deep",
      maxTokens: 9000,
      systemTokens: 700,
      userTokens: 4300,
      outputTokens: 1000,
    };
    expect(await blockedBy("BUDGET_PROFILE", { profiles: [l2] })).toEqual([
      "BUDGET_PROFILE_MISSING: The newest record's L1 and L2 profile is not the bundle's B8 profile.",
    ]);
    expect(
      (
        await blockedBy("TOKEN_COUNTING_POLICY", {
          encoding: "cl100k_base",
          headroomPercent: 5,
          rationale: "x",
        })
      )[0],
    ).toMatch(/^TOKEN_COUNTING_POLICY_MISSING: .*counts in cl100k_base/);
    expect(
      (await blockedBy("COMPACTION_POLICY", { strategy: "CUT_SECTIONS_BY_PRIORITY", rationale: "x" }))[0],
    ).toMatch(/^COMPACTION_POLICY_MISSING: .*v20-dictionary-blocks layout does DROP_PAST_RECORDS/);
  });
});

/** `runs` comparisons of which `agreed` kept the enforced action. */
function runsOf(runs: number, agreed: number): ShadowRunComparison[] {
  return Array.from({ length: runs }, (_, i) => ({
    family: i % 2 ? "orders" : "event:SIGN_IN_COMPLETED",
    enforcedAction: "CHALLENGE",
    shadowAction: i < agreed ? "CHALLENGE" : "BLOCK",
    shadowFellBack: false,
    added: i < agreed ? [] : ["NEW_DEVICE"],
    dropped: [],
    enforcedVersion: V19,
    enforcedHash: hashOf(V19),
    at: Date.UTC(2026, 8, 20) + i,
  }));
}

async function recordBatch(
  ledger: ReleaseEvidenceLedger,
  runs: number,
  agreed: number,
  version = V20,
  content = comparisonContent("instance-a", runsOf(runs, agreed)),
) {
  await ledger.record({
    kind: "SHADOW_COMPARISON",
    promptKey: PROMPT_KEY,
    promptVersion: version,
    bundleHash: hashOf(version),
    recordedBy: "system:shadow",
    recordedAt: Date.UTC(2026, 8, 21),
    content,
    contentHash: "0".repeat(64),
  });
}

/** Passes everything but the empirical part of the run (one repetition of three). */
const EMPIRICAL_ONLY: EvaluationThresholds = { ...LENIENT, minRepetitions: 3 };
const gateWithEvidence = () => gateWith(V20, ALL, EMPIRICAL_ONLY);
const activeCodes = (gate: LedgerEvidenceGate) => codes(gate, "ACTIVE");

describe("LedgerEvidenceGate: shadow comparisons as the empirical evidence", () => {
  it("clears EMPIRICAL_EVAL_MISSING when the summed batches reach the run count and agreement bound", async () => {
    const { gate, ledger } = await gateWithEvidence();
    expect(await activeCodes(gate)).toEqual(["EMPIRICAL_EVAL_MISSING"]);
    // Two instances' batches: 281 of 300 agree, a Wilson lower bound of 0.903.
    await recordBatch(ledger, 150, 141);
    await recordBatch(ledger, 150, 140);
    expect(await activeCodes(gate)).toEqual([]);
  });

  it("keeps it for another bundle's comparisons, below the run count, and below the agreement bound", async () => {
    const { gate, ledger } = await gateWithEvidence();
    await recordBatch(ledger, 300, 300, V19);
    expect(await activeCodes(gate)).toEqual(["EMPIRICAL_EVAL_MISSING"]);
    await recordBatch(ledger, 150, 140);
    expect(await activeCodes(gate)).toEqual(["EMPIRICAL_EVAL_MISSING"]); // 150 runs of 300
    await recordBatch(ledger, 150, 140); // 280 of 300: 0.8993
    const [blocker] = await gate.blockers(releaseRow(V20), "ACTIVE");
    expect(blocker?.code).toBe("EMPIRICAL_EVAL_MISSING");
    expect(blocker?.detail).toMatch(
      /Shadow comparisons: 300 runs in 2 records \(at least 300\), agreement lower bound 0\.899 \(at least 0\.9\)\.$/,
    );
  });

  it("reads every other kind's newest record however many shadow batches came after it", async () => {
    const { gate, ledger } = await gateWithEvidence();
    const one = comparisonContent("instance-a", runsOf(1, 1));
    for (let i = 0; i < 1_001; i++) await recordBatch(ledger, 1, 1, V20, one);
    expect(await activeCodes(gate)).toEqual([]);
  });
});

describe("LedgerEvidenceGate: a rehearsal informs people and is never counted", () => {
  it("a failing REHEARSAL adds no blocker, and a clean one clears none", async () => {
    const record = (ledger: ReleaseEvidenceLedger, failed: number) =>
      ledger.record({
        kind: "REHEARSAL",
        promptKey: PROMPT_KEY,
        promptVersion: V20,
        bundleHash: hashOf(V20),
        recordedBy: "root",
        recordedAt: Date.UTC(2026, 8, 22),
        content: { packages: 10, verdicts: { PASS: 10 - failed, FAIL: failed } },
        contentHash: "0".repeat(64),
      });
    const passing = await gateWith(V20, ALL);
    await record(passing.ledger, 10);
    expect(await activeCodes(passing.gate)).toEqual([]);
    const empirical = await gateWithEvidence();
    await record(empirical.ledger, 0);
    expect(await activeCodes(empirical.gate)).toEqual(["EMPIRICAL_EVAL_MISSING"]);
  });
});
