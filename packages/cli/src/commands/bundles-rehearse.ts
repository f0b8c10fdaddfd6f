import {
  type CliCommand,
  CliFailure,
  CliUsageError,
  type CommandInput,
  EXIT_FAILED,
  EXIT_OK,
} from "../command-line/cli-command.js";
import { serverText } from "../command-line/terminal-text.js";
import { adminClient } from "./admin-command-client.js";
import { recordedLine, recordOf, type RecordedEvidence } from "./evidence-posting.js";

/** Where a rehearsal is asked for (the admin API). */
export const REHEARSALS_PATH = "/platform/admin/api/prompt-inspection/rehearsals";
const VERSION = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;
const EPOCH_MS = /^\d{1,15}$/;
// As the inspection API takes them: a date (UTC midnight), or a date-time with its zone.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const VERDICTS = ["PASS", "FAIL", "INCOMPLETE", "NOT_APPLICABLE", "ERROR"] as const;
/** Findings printed (the record keeps up to 20; `--json` shows them all). */
const SHOWN_FINDINGS = 5;

type Counts = Record<(typeof VERDICTS)[number], number>;
type CheckRow = {
  check: string;
  pass: number;
  mismatch: number;
  unverifiable: number;
  notApplicable: number;
};
type Finding = {
  packageId: string;
  check: string;
  kind: string;
  reason: string;
  detail: string;
  layer: string | null;
  line: number | null;
  text: string | null;
};

/** What the CLI reads of the server's rehearsal summary (checked before use: a server may be hostile). */
export interface RehearsalAnswer {
  candidate: { promptVersion: string; bundleHash: string; layout: string };
  period: { from: number; to: number };
  packages: number;
  truncated: boolean;
  skipped: { shadow: number; erased: number; unreadable: number };
  verdicts: Counts;
  checks: CheckRow[];
  overBudget: number;
  findings: Finding[];
}

function instantOption(input: CommandInput, name: "from" | "to"): string | number | undefined {
  const v = input.options[name];
  if (v === undefined) return undefined;
  if (typeof v === "string" && EPOCH_MS.test(v)) return Number(v);
  if (typeof v === "string" && ISO_INSTANT.test(v)) return v;
  throw new CliUsageError(
    `--${name} takes an ISO-8601 date or date-time with its zone, or epoch milliseconds`,
  );
}

function limitOption(input: CommandInput): number | undefined {
  const v = input.options.limit;
  if (v === undefined) return undefined;
  if (typeof v !== "string" || !/^[1-9]\d{0,3}$/.test(v) || Number(v) > 1_000)
    throw new CliUsageError("--limit takes a whole number from 1 to 1000");
  return Number(v);
}

const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const isText = (v: unknown) => typeof v === "string" && v.length <= 2_000;
const isTextOrNull = (v: unknown) => v === null || isText(v);

function wellFormedFinding(f: Record<string, unknown> | null): boolean {
  return (
    f !== null &&
    typeof f === "object" &&
    ["packageId", "check", "kind", "reason", "detail"].every((k) => isText(f[k])) &&
    isTextOrNull(f.layer) &&
    isTextOrNull(f.text) &&
    (f.line === null || isCount(f.line))
  );
}

/** The server's answer as a rehearsal summary, or SERVER_ANSWER_INVALID. */
export function rehearsalOf(body: unknown): { rehearsal: RehearsalAnswer; record: unknown } {
  const answer = body as { rehearsal?: Record<string, unknown>; record?: unknown } | null;
  const r = answer?.rehearsal;
  const c = r?.candidate as Record<string, unknown> | undefined;
  const ok =
    r !== undefined &&
    r !== null &&
    typeof r === "object" &&
    isCount(r.packages) &&
    typeof r.truncated === "boolean" &&
    isCount(r.overBudget) &&
    [c?.promptVersion, c?.bundleHash, c?.layout].every(isText) &&
    VERDICTS.every((v) => isCount((r.verdicts as Record<string, unknown> | undefined)?.[v])) &&
    ["shadow", "erased", "unreadable"].every((k) => isCount((r.skipped as Record<string, unknown>)?.[k])) &&
    isCount((r.period as Record<string, unknown>)?.from) &&
    isCount((r.period as Record<string, unknown>)?.to) &&
    Array.isArray(r.checks) &&
    r.checks.length <= 10 &&
    r.checks.every(
      (row: Record<string, unknown>) =>
        isText(row?.check) &&
        ["pass", "mismatch", "unverifiable", "notApplicable"].every((k) => isCount(row[k])),
    ) &&
    Array.isArray(r.findings) &&
    r.findings.length <= 20 &&
    r.findings.every(wellFormedFinding);
  if (!ok) throw new CliFailure("The server's answer is not a rehearsal summary", "SERVER_ANSWER_INVALID");
  return { rehearsal: r as unknown as RehearsalAnswer, record: answer?.record ?? null };
}

const iso = (ms: number) => (ms <= 8_640_000_000_000_000 ? new Date(ms).toISOString() : String(ms));

/** The summary as lines: counts per verdict and per check, then the first findings with their prompt lines. */
export function rehearsalLines(r: RehearsalAnswer): string[] {
  const c = r.candidate;
  const skipped = r.skipped.shadow + r.skipped.erased + r.skipped.unreadable;
  const lines = [
    `${serverText(c.promptVersion)} (${serverText(c.layout)}, ${serverText(c.bundleHash.slice(0, 12))}…) over ${r.packages} sealed contexts captured ${iso(r.period.from)} .. ${iso(r.period.to)}` +
      (r.truncated ? " (more in the period: raise --limit or narrow it)" : "") +
      (skipped
        ? `; skipped ${r.skipped.shadow} shadow, ${r.skipped.erased} erased, ${r.skipped.unreadable} unreadable`
        : ""),
    `  verdicts: ${VERDICTS.map((v) => `${v} ${r.verdicts[v]}`).join(", ")}` +
      (r.overBudget ? `; ${r.overBudget} renders over budget` : ""),
    ...r.checks.map(
      (k) =>
        `  ${serverText(k.check).padEnd(22)} pass ${k.pass}, mismatch ${k.mismatch}, unverifiable ${k.unverifiable}, not applicable ${k.notApplicable}`,
    ),
  ];
  for (const f of r.findings.slice(0, SHOWN_FINDINGS)) {
    const where = f.line === null ? "" : ` ${serverText(f.layer ?? "")} line ${f.line}`;
    lines.push(
      `  ${serverText(f.kind)} ${serverText(f.check)} ${serverText(f.reason)} in ${serverText(f.packageId)}${where}: ${serverText(f.detail)}`,
    );
    if (f.text !== null) lines.push(`      | ${serverText(f.text)}`);
  }
  if (r.findings.length > SHOWN_FINDINGS)
    lines.push(`  … ${r.findings.length - SHOWN_FINDINGS} more findings in the record (--json shows them)`);
  return lines;
}

/**
 * `platform bundles rehearse <candidate>`: a counterfactual re-render. The server renders the sealed
 * contexts of enforced decisions of a capture period again with the candidate bundle, holds the
 * renders to the inspector's layout checks (no model call) and records the summary as REHEARSAL
 * evidence bound to the candidate's bundle hash, under the signed-in administrator (`--dry-run`:
 * not recorded). Exit 1 when a render FAILs a check or cannot be rendered.
 */
export const bundlesRehearseCommand: CliCommand = {
  name: ["bundles", "rehearse"],
  summary: "Re-render sealed production contexts with a candidate bundle and run the layout checks (ADMIN)",
  args: "<candidate>",
  options: [
    {
      name: "from",
      value: "<instant>",
      description: "Capture period start (ISO-8601 or epoch ms; default 7 days before --to)",
    },
    { name: "to", value: "<instant>", description: "Capture period end, exclusive (default: now)" },
    {
      name: "limit",
      value: "<n>",
      description: "Sealed contexts to rehearse, 1..1000 (default 200), oldest first",
    },
    { name: "dry-run", description: "Rehearse and print; record no evidence" },
    { name: "url", value: "<server>", description: "The server (default: the last one you logged in to)" },
  ],
  async run(input) {
    if (input.positionals.length !== 1)
      throw new CliUsageError("bundles rehearse needs exactly one <candidate>");
    const candidate = input.positionals[0]!;
    if (!VERSION.test(candidate))
      throw new CliUsageError("<candidate> is a bundle version (letters, digits, '.', '_', ':', '-')");
    const from = instantOption(input, "from");
    const to = instantOption(input, "to");
    const limit = limitOption(input);
    const record = input.options["dry-run"] !== true;
    const client = adminClient(input);
    const body = {
      candidate,
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
      ...(limit === undefined ? {} : { limit }),
      record,
    };
    const answer = rehearsalOf((await client.call("POST", REHEARSALS_PATH, body)).body);
    const recorded: RecordedEvidence | null = record ? recordOf(answer.record) : null;
    const r = answer.rehearsal;
    const failed = r.verdicts.FAIL + r.verdicts.ERROR > 0;
    if (input.json) input.io.out(JSON.stringify({ ok: !failed, rehearsal: r, record: recorded }));
    else {
      const lines = rehearsalLines(r);
      if (recorded) lines.push(recordedLine(recorded, await client.serverUrl()));
      input.io.out(lines.join("\n"));
    }
    return failed ? EXIT_FAILED : EXIT_OK;
  },
};
