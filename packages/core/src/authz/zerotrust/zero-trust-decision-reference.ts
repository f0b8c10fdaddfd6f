import type { ZeroTrustActionRecord } from "./zero-trust-action-store.js";

/** The id shapes a reason may name: UUIDs and other plain ids, never free text. */
const DECISION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
/** How a record's reason names the security decision that wrote it: `decision <id>: <text>`. */
const LEAD = /^decision ([A-Za-z0-9][A-Za-z0-9_-]{0,127}): /;

/**
 * The operator reason `text` led by the id of the security decision it records, cut to `maxLength`
 * (the lead survives the cut), so the record itself names what an administrator looks up. The store
 * keeps no other field for it. An id of another shape is left out (the answer then names none).
 */
export function reasonNamingDecision(decisionId: string, text: string, maxLength: number): string {
  const reason = DECISION_ID.test(decisionId) ? `decision ${decisionId}: ${text}` : text;
  return reason.slice(0, maxLength);
}

/** The id of the security decision that wrote `record` (the lead of its reason), if one did. */
export function decisionIdOf(record: Pick<ZeroTrustActionRecord, "reason"> | undefined): string | undefined {
  return record?.reason === undefined ? undefined : LEAD.exec(record.reason)?.[1];
}
