import type { PastRecordInput } from "../../input/prompt-input.js";
import { classifyAction, classifyNetwork, classifyResource } from "../../vocabulary/vocabulary.js";
import { oneLine, utcInstant } from "./value-forms.js";

/**
 * The order PAST RECORDS draws in: records on the current request's target first, then the others;
 * within each group latest first (by time, then by id, so equal times still order one way).
 */
export function orderPastRecords(
  records: readonly PastRecordInput[],
  target: string | undefined,
): PastRecordInput[] {
  const latestFirst = (a: PastRecordInput, b: PastRecordInput) =>
    utcInstant(b.time).localeCompare(utcInstant(a.time)) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
  const same = records.filter((r) => target !== undefined && r.target === target).sort(latestFirst);
  const others = records.filter((r) => !(target !== undefined && r.target === target)).sort(latestFirst);
  return [...same, ...others];
}

const field = (value: string | number | undefined): string =>
  value === undefined ? "-" : oneLine(String(value));

/** The twelve fields of one record, joined by ` | ` (docs/prompt-v20-dictionary.md, "The PAST RECORDS block"). */
export function pastRecordFields(r: PastRecordInput): string {
  return [
    field(r.id),
    utcInstant(r.time),
    field(r.subject),
    field(classifyAction(r.method, r.target)),
    field(r.target),
    field(classifyResource(r.target)),
    field(classifyNetwork(r.network)),
    field(r.device),
    field(r.decision),
    field(r.riskScore),
    field(r.confidence),
    field(r.outcome),
  ].join(" | ");
}
