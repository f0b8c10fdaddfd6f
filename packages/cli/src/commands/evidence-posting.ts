import { CliFailure } from "../command-line/cli-command.js";

/** Where evidence is posted (the admin API's evidence endpoint). */
export const EVIDENCE_PATH = "/platform/admin/api/prompt-quality/evidence";

/** What the CLI reads of a recorded piece of evidence in the server's answer (checked before use). */
export interface RecordedEvidence {
  id: string;
  kind: string;
  promptVersion: string;
  bundleHash: string;
  recordedBy: string;
  contentHash: string;
}

/** The server's answer as a recorded piece of evidence, or SERVER_ANSWER_INVALID. */
export function recordOf(body: unknown): RecordedEvidence {
  const r = body as Partial<Record<keyof RecordedEvidence, unknown>> | null;
  const text = (v: unknown, max: number) => typeof v === "string" && /^[\w.:@-]+$/.test(v) && v.length <= max;
  // A username may hold more than word characters; it must still be one visible line.
  const name = (v: unknown) => typeof v === "string" && /^[^\p{Cc}\p{Cf}\s]{1,256}$/u.test(v);
  const ok =
    text(r?.id, 128) &&
    text(r?.kind, 64) &&
    text(r?.promptVersion, 64) &&
    text(r?.bundleHash, 64) &&
    name(r?.recordedBy) &&
    text(r?.contentHash, 64);
  if (!ok)
    throw new CliFailure("The server's answer is not a recorded piece of evidence", "SERVER_ANSWER_INVALID");
  return body as RecordedEvidence;
}

/** One line saying what was recorded, where, and under whose name. */
export function recordedLine(r: RecordedEvidence, server: string): string {
  return `Recorded ${r.kind} ${r.id} for ${r.promptVersion} (${r.bundleHash.slice(0, 12)}…) on ${server} as ${r.recordedBy}; content ${r.contentHash}`;
}
