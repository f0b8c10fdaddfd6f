import type { EvaluationRunRecord } from "@keyward/core/governance";
import { type CliCommand, CliUsageError, type CommandInput, EXIT_OK } from "../command-line/cli-command.js";
import { adminClient } from "./admin-command-client.js";
import { EVIDENCE_PATH, recordedLine, recordOf } from "./evidence-posting.js";

const FAMILY = /^[A-Z][A-Z0-9_]{1,63}$/;

function repetitionsOf(input: CommandInput): number | undefined {
  const k = input.options.repetitions;
  if (k === undefined) return undefined;
  if (typeof k !== "string" || !/^([1-9]|1\d|20)$/.test(k))
    throw new CliUsageError("--repetitions takes a whole number from 1 to 20");
  return Number(k);
}

function familiesOf(input: CommandInput): string[] | undefined {
  const list = input.options.families;
  if (list === undefined) return undefined;
  const families = typeof list === "string" ? list.split(",").map((f) => f.trim()) : [];
  if (families.length === 0 || families.some((f) => !FAMILY.test(f)))
    throw new CliUsageError(
      "--families takes family names separated by commas (PROMPT_INJECTION,TOOL_MISUSE)",
    );
  return families;
}

/** The run's summary as lines: one per family and the overall, with the Wilson bound. */
function summaryLines(run: EvaluationRunRecord): string[] {
  const s = run.summary;
  const tally = (t: { passed: number; trials: number; passRate: number; lowerBound: number }) =>
    `${t.passed}/${t.trials} passed (${(t.passRate * 100).toFixed(1)} %, lower bound ${t.lowerBound.toFixed(4)})`;
  return [
    `${run.promptVersion} ${run.bundleHash} with ${run.model.provider}:${run.model.name}, k=${run.repetitions}`,
    ...s.families.map((f) => `  ${f.family.padEnd(18)} ${tally(f)}`),
    `  ${"overall".padEnd(18)} ${tally(s.overall)}`,
    `  latency p95 ${s.latencyP95Ms} ms, ${s.tokensPerDecision} tokens per decision; test set ${run.testSetHash}`,
  ];
}

/**
 * `platform bundles evaluate <version>`: runs the scenario families through the decision engine
 * with this machine's configured model (its key from the environment, as the decisions plugin reads
 * it), and posts the run record as EVALUATION_RUN evidence under the signed-in administrator. The
 * login is checked before the run, so a paid run is never lost to a missing login.
 */
export const bundlesEvaluateCommand: CliCommand = {
  name: ["bundles", "evaluate"],
  summary: "Evaluate a bundle on the scenario families with the configured model, and record the run (ADMIN)",
  args: "<version>",
  options: [
    {
      name: "repetitions",
      value: "<k>",
      description: "Decisions per case, 1..20 (default: the property, 3)",
    },
    {
      name: "families",
      value: "<a,b>",
      description: "Families to run (default: the manifest's, else the three OWASP ones)",
    },
    { name: "config", value: "<file>", description: "JSON file of decision-model and evaluation properties" },
    { name: "url", value: "<server>", description: "The server (default: the last one you logged in to)" },
    { name: "dry-run", description: "Run and print the record; post nothing" },
  ],
  async run(input) {
    if (input.positionals.length !== 1)
      throw new CliUsageError("bundles evaluate needs exactly one <version>");
    const repetitions = repetitionsOf(input);
    const families = familiesOf(input);
    const dryRun = input.options["dry-run"] === true;
    const client = dryRun ? undefined : adminClient(input);
    const server = await client?.serverUrl();
    const { evaluateConfiguredBundle } = await import("@keyward/core/governance");
    const run = await evaluateConfiguredBundle({
      version: input.positionals[0]!,
      repetitions,
      families,
      configFile: typeof input.options.config === "string" ? input.options.config : undefined,
      env: input.io.env,
      onResult: (r) =>
        input.io.err(
          `${r.caseId} #${r.repetition} ${r.action.padEnd(9)} ${r.passed ? "pass" : "FAIL"} ${Math.round(r.latencyMs)} ms`,
        ),
    });
    if (!client) {
      input.io.out(
        input.json ? JSON.stringify({ ok: true, dryRun: true, run }) : summaryLines(run).join("\n"),
      );
      return EXIT_OK;
    }
    const body = {
      kind: "EVALUATION_RUN",
      promptKey: run.promptKey,
      promptVersion: run.promptVersion,
      bundleHash: run.bundleHash,
      content: run,
    };
    const record = recordOf((await client.call("POST", EVIDENCE_PATH, body)).body);
    if (input.json) input.io.out(JSON.stringify({ ok: true, record, summary: run.summary }));
    else input.io.out([...summaryLines(run), recordedLine(record, server!)].join("\n"));
    return EXIT_OK;
  },
};
