import { describe, expect, it } from "vitest";
import { zeroTrustUserSubject } from "../../authz/zerotrust/zero-trust-subject.js";
import { RecordingDecisionMaker, until } from "../../decisions/pipeline/decision-pipeline.fixture.js";
import { canonicalJson, type JsonValue, sha256Hex } from "../../prompts/hashing/canonical-json.js";
import { LedgerEvidenceGate } from "../evidence/evidence-gate-service.js";
import type { EvaluationThresholds } from "../evidence/gate-evidence-checks.js";
import { shadowComparisonSchema } from "../evidence/shadow-comparison-content.js";
import { SHADOW_AUDIT } from "./shadow-audit.js";
import { SHADOW_RECORDER } from "./shadow-comparison-recorder.js";
import {
  CATALOG,
  PROMPT_KEY,
  row,
  shadowStack,
  snapshotsOf,
  V18,
  V19,
  V20,
} from "./shadow-runner.fixture.js";
import { ManualClock } from "../../kernel/clock.js";
import { sealedEvidenceFixture } from "../../decisions/evidence/sealed-evidence.fixture.js";
import { SealedEvidenceToken } from "../../decisions/evidence/sealed-evidence-service.js";
import { DecisionMaker } from "../../decisions/pipeline/decision-maker.js";
import { ShadowDecisions } from "../../decisions/pipeline/shadow-decisions.js";
import { createPlatform } from "../../kernel/platform.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { DependencyContainer } from "tsyringe";
import { promptsPlugin } from "../../prompts/prompts-plugin.js";
import { promptGovernancePlugin } from "../governance-plugin.js";
import { ReleaseSnapshots } from "../selection/release-snapshots.js";
import { ShadowRunner } from "./shadow-runner.js";

const V20_HASH = CATALOG.find(V20)!.manifest.bundleHash;

describe("ShadowRunner in the decision pipeline", () => {
  it("runs the SHADOW release on a frozen copy after the decision, seals it as stage SHADOW, enforces nothing", async () => {
    const f = await shadowStack();
    f.pipeline.submit(f.signIn({ sessionHandle: "h-1" }));
    await f.pipeline.idle();

    const [enforcedRequest, shadowRequest] = f.maker.requests;
    expect(f.maker.requests).toHaveLength(2);
    expect(enforcedRequest!.selection).toMatchObject({ version: V19, source: "BUILD_DEFAULT" });
    expect(shadowRequest!.selection).toMatchObject({
      version: V20,
      bundleHash: V20_HASH,
      source: "SHADOW",
      release: {
        promptVersion: V20,
        status: "SHADOW",
        registryScope: "PLATFORM_GLOBAL",
        approvedBy: "alice",
      },
    });
    expect(shadowRequest!.input).toEqual(enforcedRequest!.input);
    expect(Object.isFrozen(shadowRequest!.input)).toBe(true);

    // One decision enforced: one history record, one decision.made, the zero-trust record names it.
    const [made] = f.auditOf("decision.made");
    expect(f.auditOf("decision.made")).toHaveLength(1);
    const decisionId = made!.data!.decisionId as string;
    expect(await f.history.recentFor(f.alice.id, 10)).toMatchObject([{ id: decisionId }]);
    const record = await f.store.get(zeroTrustUserSubject(f.alice.id));
    expect(record?.reason).toMatch(new RegExp(`^decision ${decisionId}: AI ${made!.data!.action}`));
    expect(f.alerts).toEqual([]);

    const packages = await f.evidence.recent(10);
    expect(packages).toHaveLength(2);
    const enforced = packages.find((p) => p.id === decisionId)!;
    const shadow = packages.find((p) => p.id !== decisionId)!;
    expect(enforced.metadata).toMatchObject({
      stage: "ENFORCE",
      bundleVersion: V19,
      selectionSource: "BUILD_DEFAULT",
    });
    expect(enforced.metadata.release).toBeUndefined();
    expect(shadow).toMatchObject({ eventId: enforced.eventId, input: enforced.input });
    expect(shadow.metadata).toMatchObject({
      stage: "SHADOW",
      selectionSource: "SHADOW",
      bundleVersion: V20,
      bundleHash: V20_HASH,
      userId: f.alice.id,
      release: { promptVersion: V20, status: "SHADOW" },
    });
    expect(f.auditOf(SHADOW_AUDIT.ran)).toMatchObject([
      { data: { packageId: shadow.id, shadowVersion: V20 } },
    ]);
    expect(f.runner.stats()).toMatchObject({
      sampled: 1,
      admitted: 1,
      ran: 1,
      failed: 0,
      pendingComparisons: 1,
    });
  });

  it("makes the pipeline's idle() wait for a shadow run still going", async () => {
    const shadowMaker = new RecordingDecisionMaker();
    shadowMaker.gate.holding = true;
    const f = await shadowStack({ shadowMaker });
    f.pipeline.submit(f.signIn());
    await until(() => shadowMaker.requests.length === 1);
    let idle = false;
    const waiting = f.pipeline.idle().then(() => (idle = true));
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(idle).toBe(false);
    expect(await f.evidence.recent(10)).toHaveLength(1);
    shadowMaker.gate.release();
    await waiting;
    expect((await f.evidence.recent(10)).map((p) => p.metadata.stage).sort()).toEqual(["ENFORCE", "SHADOW"]);
  });

  it("skips a SHADOW release of a version this build does not run, logged and audited once per version", async () => {
    const f = await shadowStack({ rows: [row(V19, "ACTIVE"), row(V18, "SHADOW")] });
    f.pipeline.submit(f.signIn());
    await f.pipeline.idle();
    f.pipeline.submit(f.signIn());
    await f.pipeline.idle();
    expect(f.maker.requests.map((r) => r.selection.source)).toEqual(["BUILD_DEFAULT", "BUILD_DEFAULT"]);
    expect(f.runner.stats()).toMatchObject({ sampled: 2, notInBuild: 2, admitted: 0 });
    expect(f.logger.lines.filter((l) => l.message.includes("not run by this build"))).toHaveLength(1);
    expect(f.auditOf(SHADOW_AUDIT.skipped)).toMatchObject([{ data: { version: V18 } }]);

    // A row of a runnable version with another build's artifact hash is not this build's bundle either.
    const g = await shadowStack({ rows: [row(V19, "ACTIVE"), row(V20, "SHADOW", "f".repeat(64))] });
    g.pipeline.submit(g.signIn());
    await g.pipeline.idle();
    expect(g.maker.requests).toHaveLength(1);
    expect(g.runner.stats().notInBuild).toBe(1);
  });

  it("runs no shadow without a SHADOW release, or outside the sample", async () => {
    const f = await shadowStack({ rows: [row(V19, "ACTIVE"), row(V20, "CANARY")] });
    f.pipeline.submit(f.signIn());
    await f.pipeline.idle();
    expect(f.runner.stats()).toMatchObject({ sampled: 1, noRelease: 1, admitted: 0 });
    const g = await shadowStack({ percent: 0 });
    g.pipeline.submit(g.signIn());
    await g.pipeline.idle();
    expect(g.maker.requests).toHaveLength(1);
    expect(g.runner.stats().sampled).toBe(0);
  });

  it("counts a shadow fallback as a run that did not agree, and a failed run as nothing", async () => {
    const shadowMaker = new RecordingDecisionMaker();
    shadowMaker.gate.mode = "fail"; // the engine answers with its recorded fallback
    const f = await shadowStack({ shadowMaker, batchSize: 1 });
    f.pipeline.submit(f.signIn());
    await f.pipeline.idle();
    const shadow = (await f.evidence.recent(10)).find((p) => p.metadata.stage === "SHADOW");
    expect(shadow?.metadata.fallback).toBeDefined();
    const [record] = await f.ledger.list({ promptKey: PROMPT_KEY, kind: "SHADOW_COMPARISON" });
    expect(record?.content).toMatchObject({ runs: 1, agreed: 0, fellBack: 1, actions: [], families: [] });

    // A maker that throws: counted and audited; nothing sealed or compared; the decision stands.
    const down: DecisionMaker = {
      model: { id: "down", external: false },
      decide: () => Promise.reject(new PlatformError("DECISION_MODEL_UNAVAILABLE", "down")),
    };
    const g = await shadowStack({ shadowMaker: down, batchSize: 1 });
    g.pipeline.submit(g.signIn());
    await g.pipeline.idle();
    expect(g.runner.stats()).toMatchObject({ admitted: 1, ran: 0, failed: 1 });
    expect(g.auditOf(SHADOW_AUDIT.failed)).toMatchObject([{ data: { error: "DECISION_MODEL_UNAVAILABLE" } }]);
    expect((await g.evidence.recent(10)).map((p) => p.metadata.stage)).toEqual(["ENFORCE"]);
    expect(await g.ledger.list({ promptKey: PROMPT_KEY })).toEqual([]);
  });

  it("admits at most the daily cap of runs per UTC day, and again after midnight UTC", async () => {
    const f = await shadowStack({ cap: 1 });
    f.pipeline.submit(f.signIn());
    await f.pipeline.idle();
    f.pipeline.submit(f.signIn());
    await f.pipeline.idle();
    expect(f.runner.stats()).toMatchObject({ admitted: 1, capped: 1, ran: 1 });
    f.clock.advance(14 * 3_600_000); // 10:00 → 00:00 UTC the next day
    f.pipeline.submit(f.signIn());
    await f.pipeline.idle();
    expect(f.runner.stats()).toMatchObject({ admitted: 2, capped: 1, ran: 2 });
  });

  it("lets one requester take only its share of the day's cap, the others theirs, again after midnight UTC", async () => {
    const f = await shadowStack({ cap: 4, share: 50 });
    const bob = await f.users.create({ username: "bob", passwordHash: "x", authorities: ["ROLE_USER"] });
    for (let i = 0; i < 3; i++) {
      f.pipeline.submit(f.signIn());
      await f.pipeline.idle();
    }
    expect(f.runner.stats()).toMatchObject({ admitted: 2, requesterCapped: 1, capped: 0 });
    f.pipeline.submit(f.signIn({ userId: bob.id }));
    await f.pipeline.idle();
    expect(f.runner.stats()).toMatchObject({ admitted: 3, requesterCapped: 1, ran: 3 });
    f.clock.advance(14 * 3_600_000); // 10:00 → 00:00 UTC the next day
    f.pipeline.submit(f.signIn());
    await f.pipeline.idle();
    expect(f.runner.stats()).toMatchObject({ admitted: 4, requesterCapped: 1, ran: 4 });
  });

  it("records comparisons in batches as SHADOW_COMPARISON evidence that the real gate sums", async () => {
    const f = await shadowStack({ batchSize: 2 });
    f.pipeline.submit(f.signIn());
    await f.pipeline.idle();
    f.pipeline.submit(f.signIn({ target: "/admin/api/users", method: "DELETE" }));
    await f.pipeline.idle();
    f.pipeline.submit(f.signIn({ target: undefined, method: undefined }));
    await f.pipeline.idle();
    const query = { promptKey: PROMPT_KEY, kind: "SHADOW_COMPARISON" as const };
    const [first, ...none] = await f.ledger.list(query);
    expect(none).toEqual([]);
    expect(first).toMatchObject({ promptVersion: V20, bundleHash: V20_HASH, recordedBy: SHADOW_RECORDER });
    expect(first!.contentHash).toBe(sha256Hex(canonicalJson(first!.content as JsonValue)));
    const content = shadowComparisonSchema.parse(first!.content);
    expect(content).toMatchObject({ instanceId: "instance-a", runs: 2 });
    expect(content.families.map((x) => x.family).sort()).toEqual(["orders", "users"]);
    expect(content.enforced).toEqual([
      { bundleVersion: V19, bundleHash: CATALOG.find(V19)!.manifest.bundleHash, runs: 2 },
    ]);

    await f.runner.flush(); // the third run's partial batch, as at stop
    const records = await f.ledger.list(query);
    expect(records.map((r) => (r.content as { runs: number }).runs)).toEqual([1, 2]);
    expect((records[0]!.content as { families: { family: string }[] }).families[0]!.family).toBe(
      "event:SIGN_IN_COMPLETED",
    );
    expect(f.auditOf(SHADOW_AUDIT.batchRecorded)).toHaveLength(2);
    // A decision that finishes after the flush (the pipeline drains after this hook) is recorded at once.
    f.pipeline.submit(f.signIn());
    await f.pipeline.idle();
    expect(f.runner.stats()).toMatchObject({ batchesRecorded: 3, pendingComparisons: 0 });

    const gate = (shadowMinRuns: number) =>
      new LedgerEvidenceGate({ ledger: f.ledger, catalog: CATALOG, thresholds: { ...LOOSE, shadowMinRuns } });
    const codes = async (minRuns: number) =>
      (await gate(minRuns).blockers(row(V20, "SHADOW"), "ACTIVE")).map((b) => b.code);
    expect(await codes(4)).not.toContain("EMPIRICAL_EVAL_MISSING"); // 2 + 1 + 1 runs
    expect(await codes(4)).toContain("PROMPT_INJECTION_GATE_FAILED"); // shadow evidence clears only its check
    expect(await codes(5)).toContain("EMPIRICAL_EVAL_MISSING");
  });
});

/** Thresholds under which any agreement passes: only the run count decides. */
const LOOSE: EvaluationThresholds = {
  passRateLowerBound: 0.8,
  injectionLowerBound: 0.85,
  maxLatencyP95Ms: 10_000,
  maxTokensPerDecision: 8_000,
  minRepetitions: 3,
  shadowMinRuns: 3,
  shadowAgreementLowerBound: 0,
};

function platformWith(percent: string | undefined, register: (c: DependencyContainer) => void = () => {}) {
  return createPlatform({
    plugins: [promptsPlugin, promptGovernancePlugin],
    properties:
      percent === undefined
        ? {}
        : { "platform.security.tiered.prompt-bundle.shadow.sample-percent": percent },
    register,
  });
}

describe("registerShadow", () => {
  it("registers no shadow runner unless shadow.sample-percent is above 0", () => {
    expect(() => platformWith(undefined).resolve(ShadowDecisions)).toThrow();
    expect(() => platformWith("0").resolve(ShadowDecisions)).toThrow();
  });

  it("registers the runner over the registry view and the configured model when it is set", async () => {
    const views = await snapshotsOf([row(V19, "ACTIVE"), row(V20, "SHADOW")]);
    const platform = platformWith("10", (c) => {
      c.registerInstance(ReleaseSnapshots, views);
      c.registerInstance(DecisionMaker, new RecordingDecisionMaker());
      c.registerInstance(SealedEvidenceToken, sealedEvidenceFixture({ clock: new ManualClock(0) }).sealed);
    });
    expect(platform.resolve(ShadowDecisions)).toBeInstanceOf(ShadowRunner);
  });

  it("refuses a share without a configured model, and a share out of range, at start-up", () => {
    const error = (() => {
      try {
        platformWith("10").resolve(ShadowDecisions);
      } catch (e) {
        return e as { code?: string; message: string };
      }
    })();
    expect(error?.code).toBe("CONFIGURATION_INVALID");
    expect(error?.message).toContain("DecisionMaker");
    expect(() => platformWith("101")).toThrow(/sample-percent/);
  });
});
