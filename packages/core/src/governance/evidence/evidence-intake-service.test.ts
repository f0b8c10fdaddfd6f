import { beforeAll, describe, expect, it } from "vitest";
import { InMemoryPolicyRepository } from "../../authz/policy/in-memory-policy-repository.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { ManualClock } from "../../kernel/clock.js";
import { policySetHashOf, policySetSourceOf } from "../policy-sets/policy-set-hash.js";
import { canonicalJson, type JsonValue, sha256Hex } from "../../prompts/hashing/canonical-json.js";
import type { EvaluationRunRecord } from "../evaluation/evaluation-run-record.js";
import { summarizeCases } from "../evaluation/evaluation-summary.js";
import { EVIDENCE_AUDIT_EVENT } from "./evidence-intake-service.js";
import {
  ADMIN,
  build,
  hashOf,
  intakeStack,
  offlineRun,
  PROMPT_KEY,
  policyEvidence,
  V19,
  V20,
} from "./evidence.fixture.js";

let run: EvaluationRunRecord;
beforeAll(async () => {
  run = await offlineRun(V20, 1);
});

const submission = (content: unknown, over: Record<string, unknown> = {}) => ({
  kind: "EVALUATION_RUN" as const,
  promptKey: PROMPT_KEY,
  promptVersion: V20,
  bundleHash: hashOf(V20),
  content,
  ...over,
});
/** A copy of the run edited by `edit`, its summary left as the runner wrote it unless `resummarise`. */
function edited(edit: (r: EvaluationRunRecord) => void, resummarise = false): EvaluationRunRecord {
  const copy = structuredClone(run);
  edit(copy);
  if (resummarise) copy.summary = summarizeCases(copy.families, copy.cases);
  return copy;
}
async function reasonsOf(
  content: unknown,
  over: Record<string, unknown> = {},
  stack = intakeStack(),
): Promise<string> {
  const error = await stack.intake.submit(submission(content, over), ADMIN).catch((e) => e);
  expect(error.code).toBe("EVALUATION_RECORD_INCONSISTENT");
  return (error.details.reasons as string[]).join("\n");
}

describe("LedgerEvidenceIntake: evaluation runs", () => {
  it("records a real run under the actor, with its content hash, and audits it", async () => {
    const { intake, audit, ledger } = intakeStack();
    const record = await intake.submit(submission(run), ADMIN);
    expect(record).toMatchObject({ kind: "EVALUATION_RUN", recordedBy: "admin", bundleHash: hashOf(V20) });
    expect(record.contentHash).toBe(sha256Hex(canonicalJson(run as unknown as JsonValue)));
    expect(await ledger.get(record.id)).toEqual(record);
    expect(await intake.list(PROMPT_KEY, V20)).toEqual([record]);
    expect(audit.events().at(-1)).toMatchObject({
      type: EVIDENCE_AUDIT_EVENT,
      principal: "admin",
      outcome: "success",
      correlationId: "corr-1",
      data: { id: record.id, kind: "EVALUATION_RUN", contentHash: record.contentHash },
    });
  });

  it("refuses an edited pass rate", async () => {
    const content = edited((r) => {
      r.summary.overall.passRate = 1;
      r.summary.overall.lowerBound = 0.97;
    });
    expect(await reasonsOf(content)).toMatch(/summary\.overall is not what the cases give/);
  });

  it("refuses flipped case results even with a summary that matches them", async () => {
    const content = edited((r) => {
      for (const c of r.cases) c.passed = true;
    }, true);
    expect(await reasonsOf(content)).toMatch(/PROMPT_INJECTION\/PI-08#1: passed=true but ALLOW grades false/);
  });

  it("refuses another test set's hash", async () => {
    expect(await reasonsOf(edited((r) => (r.testSetHash = "0".repeat(64))))).toMatch(
      /testSetHash is not this build's/,
    );
  });

  it("refuses the bundle hash of another version, in the record or the submission", async () => {
    expect(await reasonsOf(edited((r) => (r.bundleHash = hashOf(V19))))).toMatch(
      /bundleHash is not the manifest's hash of/,
    );
    expect(await reasonsOf(run, { bundleHash: hashOf(V19) })).toMatch(/the submission's bundleHash/);
  });

  it("refuses a record of another version submitted for this one", async () => {
    const v19run = await offlineRun(V19, 1);
    expect(await reasonsOf(v19run)).toMatch(/the record is of .* submitted for/);
  });

  it("refuses an unknown case, a duplicate case, a missing one and a repetition past k", async () => {
    const unknown = edited((r) => (r.cases[0]!.caseId = "PI-99"), true);
    expect(await reasonsOf(unknown)).toMatch(/PI-99#1: no such case/);
    const duplicate = edited((r) => r.cases.push({ ...r.cases[0]! }), true);
    expect(await reasonsOf(duplicate)).toMatch(/PI-01#1: listed twice/);
    const missing = edited((r) => r.cases.splice(3, 1), true);
    expect(await reasonsOf(missing)).toMatch(/missing from the cases/);
    const past = edited((r) => (r.cases[0]!.repetition = 2), true);
    expect(await reasonsOf(past)).toMatch(/repetition above 1/);
  });

  it("refuses cases of a family the run does not list, and another grader", async () => {
    const stray = edited((r) => (r.families = r.families.filter((f) => f !== "MISSING_FACTS")), true);
    expect(await reasonsOf(stray)).toMatch(/family MISSING_FACTS is not among the run's families/);
    expect(await reasonsOf(edited((r) => (r.grader.version = 2)))).toMatch(/grader scenario-grader\/2/);
  });

  it("audits a refused run under its author, and records nothing", async () => {
    const { intake, audit, ledger } = intakeStack();
    await expect(
      intake.submit(submission(edited((r) => (r.testSetHash = "1".repeat(64)))), ADMIN),
    ).rejects.toThrow();
    expect(audit.events().at(-1)).toMatchObject({
      principal: "admin",
      outcome: "failure",
      data: { code: "EVALUATION_RECORD_INCONSISTENT" },
    });
    expect(await ledger.list({ promptKey: PROMPT_KEY })).toEqual([]);
  });
});

describe("LedgerEvidenceIntake: binding and shape", () => {
  const evidence = policyEvidence(V20);
  const other = (kind: string, over: Record<string, unknown> = {}) =>
    submission(evidence[kind], { kind, ...over }) as ReturnType<typeof submission>;

  it("records every other kind for the manifest's hash", async () => {
    const { intake } = intakeStack();
    for (const kind of Object.keys(evidence))
      await expect(intake.submit(other(kind), ADMIN)).resolves.toMatchObject({ kind });
  });

  it.each([
    [
      "a hash that is not the manifest's",
      { bundleHash: "f".repeat(64) },
      /bundleHash: not the manifest's hash/,
    ],
    [
      "a version this build does not run",
      { promptVersion: "2026.05.12-v18" },
      /not a bundle this build runs/,
    ],
    ["another prompt key", { promptKey: "other.prompt" }, /not a bundle this build runs/],
    ["an unknown kind", { kind: "PASSED_FLAG" }, /kind/],
    ["a malformed hash", { bundleHash: "ABC" }, /bundleHash/],
    ["a control character in the version", { promptVersion: "v20\u0000" }, /promptVersion/],
    ["a name in the body", { recordedBy: "someone-else" }, /Unrecognized key/],
    [
      "a shadow comparison (only the shadow runner records one)",
      { kind: "SHADOW_COMPARISON", content: { runs: 1_000_000, agreed: 1_000_000 } },
      /recorded by the shadow runner only/,
    ],
    [
      "a rehearsal (only the server that rehearsed records one)",
      { kind: "REHEARSAL", content: { packages: 0 } },
      /recorded by the server that rehearsed/,
    ],
  ])("refuses %s with EVIDENCE_INVALID", async (_name, over, pattern) => {
    const error = await intakeStack()
      .intake.submit(other("CHANGE_RECORD", over), ADMIN)
      .catch((e) => e);
    expect(error.code).toBe("EVIDENCE_INVALID");
    expect(error.details.issues.join("\n")).toMatch(pattern);
  });

  it("refuses content that is no JSON value or too large before its schema is read", async () => {
    const { intake } = intakeStack();
    const undef = await intake.submit(other("CHANGE_RECORD", { content: undefined }), ADMIN).catch((e) => e);
    expect(undef.details.issues).toEqual(["content: not a JSON value"]);
    const big = await intake
      .submit(other("CHANGE_RECORD", { content: { summary: "x".repeat(9_000), risk: "LOW" } }), ADMIN)
      .catch((e) => e);
    expect(big.details.issues[0]).toMatch(/characters of canonical JSON, at most 8192/);
  });
});

/** The run with every failed case given its first acceptable action, passed, and the summary recomputed. */
function everyActionAcceptable(): EvaluationRunRecord {
  const { testSet } = build();
  return edited((r) => {
    for (const c of r.cases) {
      const scenario = testSet.families.get(c.family)!.cases.find((s) => s.id === c.caseId)!;
      if (c.passed) continue;
      c.action = scenario.expected.acceptableActions[0]!;
      c.passed = true;
    }
  }, true);
}

describe("LedgerEvidenceIntake: what a run cannot claim", () => {
  it("replays a run that names the offline analyst and refuses actions it does not decide", async () => {
    const forged = everyActionAcceptable();
    expect(forged.summary.overall.passed).toBe(forged.summary.overall.trials);
    const reasons = await reasonsOf(forged);
    expect(reasons).toMatch(/PROMPT_INJECTION\/PI-08#1: the offline analyst decides ALLOW, the record says /);
    expect(reasons).toMatch(/MISSING_FACTS\/MF-03#1/);
    // Any other model: the trust boundary stands as documented (the record is its author's word).
    const custom = { ...forged, model: { provider: "custom", name: "my-analyst" } };
    await expect(intakeStack().intake.submit(submission(custom), ADMIN)).resolves.toMatchObject({
      kind: "EVALUATION_RUN",
    });
  });

  it("checks every repetition of an offline analyst run, and refuses another built-in name", async () => {
    const k2 = await offlineRun(V20, 2);
    await expect(intakeStack().intake.submit(submission(k2), ADMIN)).resolves.toBeTruthy();
    const secondOnly = structuredClone(k2);
    const pi08 = secondOnly.cases.find((c) => c.caseId === "PI-08" && c.repetition === 2)!;
    pi08.action = "BLOCK";
    pi08.passed = true;
    secondOnly.summary = summarizeCases(secondOnly.families, secondOnly.cases);
    expect(await reasonsOf(secondOnly)).toMatch(
      /PI-08#2: the offline analyst decides ALLOW, the record says BLOCK/,
    );
    const renamed = edited((r) => (r.model = { provider: "builtin", name: "offline-analyst/2" }));
    expect(await reasonsOf(renamed)).toMatch(/model builtin:offline-analyst\/2 is not a built-in model/);
  });

  it("takes a policy set hash only when it is the host's current one", async () => {
    const clock = new ManualClock();
    const repository = new InMemoryPolicyRepository({ clock, ids: new CryptoIdGenerator() });
    const current = policySetHashOf(await repository.findAll());
    const withHash = (hash: string) => edited((r) => (r.policySetHash = hash));
    expect(await reasonsOf(withHash(current))).toMatch(
      /policySetHash is given, but this host has no policy sets/,
    );
    const hosted = () => intakeStack(policySetSourceOf(repository));
    expect(await reasonsOf(withHash("f".repeat(64)), {}, hosted())).toMatch(
      /policySetHash is not this host's current policy set hash/,
    );
    await expect(hosted().intake.submit(submission(withHash(current)), ADMIN)).resolves.toMatchObject({
      content: { policySetHash: current },
    });
  });

  it("refuses a run that started or finished in the future, past five minutes of skew", async () => {
    const stack = intakeStack();
    const at = (ms: number) => new Date(stack.clock.now() + ms).toISOString();
    const late = edited((r) => (r.finishedAt = at(6 * 60_000)));
    expect(await reasonsOf(late, {}, stack)).toMatch(/finishedAt is in the future/);
    const both = edited((r) => {
      r.startedAt = at(86_400_000);
      r.finishedAt = at(86_400_000);
    });
    expect(await reasonsOf(both, {}, stack)).toMatch(/startedAt is in the future/);
    const skewed = edited((r) => (r.finishedAt = at(4 * 60_000)));
    await expect(stack.intake.submit(submission(skewed), ADMIN)).resolves.toBeTruthy();
  });
});
