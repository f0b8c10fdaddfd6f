/** The facts the offline analyst's rules read, by a name shared by both layouts. */
export const SHEET_FACTS = [
  "subject",
  "time",
  "action",
  "target",
  "class",
  "network",
  "device-trusted",
  "device-first-seen",
  "account-age-days",
  "mfa-enrolled",
  "usual-networks",
] as const;
/** One of SHEET_FACTS. */
export type SheetFactName = (typeof SHEET_FACTS)[number];

/** A fact read off a prompt line: what a reason cites (a fact ID, or a v19 section name) and its value. */
export interface SheetFact {
  readonly ref: string;
  readonly value: string;
}

/** One PAST RECORDS line (v20) or RAG evidence line (v19): its citation, its subject when known, its decision. */
export interface SheetRecord {
  readonly ref: string;
  readonly subject: string | undefined;
  readonly decision: string;
}

/** What the analyst read from a user prompt; nothing else reaches its rules. */
export interface FactSheet {
  readonly layout: "v19-sections" | "v20-dictionary-blocks";
  readonly facts: ReadonlyMap<SheetFactName, SheetFact>;
  readonly records: readonly SheetRecord[];
  /**
   * The kind of event the decision is about (`REPEATED_DENIALS`), when the prompt states it: v19's
   * first RAG evidence line `- event <KIND> …` (the pipeline writes it; past records read otherwise). The v20 layout does not
   * render the evidence, so a v20 prompt never states it.
   */
  readonly event?: SheetFact;
}

/** v20: `BLOCK.entry-name` of a line → the sheet's name for it. */
const V20_NAMES: Record<string, SheetFactName> = {
  "REQUEST.subject": "subject",
  "REQUEST.time": "time",
  "REQUEST.action": "action",
  "REQUEST.target": "target",
  "REQUEST.class": "class",
  "REQUEST.network": "network",
  "DEVICE.trusted": "device-trusted",
  "DEVICE.first-seen": "device-first-seen",
  "IDENTITY.account-age-days": "account-age-days",
  "IDENTITY.mfa-enrolled": "mfa-enrolled",
  "PATTERN.usual-networks": "usual-networks",
};

/** v19: `SECTION_NAME.label` of a line → the sheet's name for it. */
const V19_NAMES: Record<string, SheetFactName> = {
  "CURRENT_REQUEST_AND_EVENT.time": "time",
  "IDENTITY_AND_ROLE.subject": "subject",
  "RESOURCE_AND_ACTION.action": "action",
  "RESOURCE_AND_ACTION.target": "target",
  "RESOURCE_AND_ACTION.resource class": "class",
  "LOCATION_CONTEXT.network": "network",
  "DEVICE_CONTEXT.trusted": "device-trusted",
  "DEVICE_CONTEXT.first seen": "device-first-seen",
  "IDENTITY_AND_ROLE.account age days": "account-age-days",
  "IDENTITY_AND_ROLE.mfa enrolled": "mfa-enrolled",
  "OBSERVED_AND_PERSONAL_WORK_PATTERN.usual networks": "usual-networks",
};

const V20_FACT_LINE = /^\d+\. ([^:]+): (.*) \{(F\d+)\}$/;
const V20_RECORD_LINE = /^\d+\. (.*) \{(F\d+)\}$/;
const V20_HEADER = /^\[(.+)\]$/;
const V19_HEADER = /^=== (.+) ===$/;

/**
 * Reads a rendered user prompt the way a model would: v20 fact lines by their fact IDs (a line
 * without an ID states no fact), v19 `label: value` lines under their section headers (the first
 * section of a name counts). A network value keeps its term only (`EXTERNAL (203.0.113.54)` → `EXTERNAL`).
 */
export function readFactSheet(userPrompt: string): FactSheet {
  const lines = userPrompt.split("\n");
  return lines.some((l) => l === "[REQUEST]") ? readV20(lines) : readV19(lines);
}

function readV20(lines: readonly string[]): FactSheet {
  const facts = new Map<SheetFactName, SheetFact>();
  const records: SheetRecord[] = [];
  let block = "";
  for (const line of lines) {
    const header = V20_HEADER.exec(line);
    if (header) {
      block = header[1]!;
      continue;
    }
    if (block === "PAST RECORDS") {
      const record = V20_RECORD_LINE.exec(line);
      if (!record) continue;
      const fields = record[1]!.split(" | ");
      records.push({ ref: record[2]!, subject: dash(fields[2]), decision: fields[8] ?? "-" });
      continue;
    }
    const fact = V20_FACT_LINE.exec(line);
    if (!fact) continue;
    const [, name, value, ref] = fact as unknown as [string, string, string, string];
    const sheetName = V20_NAMES[`${block}.${name}`];
    if (sheetName && !facts.has(sheetName)) facts.set(sheetName, { ref, value: termOf(sheetName, value) });
  }
  return { layout: "v20-dictionary-blocks", facts, records };
}

function readV19(lines: readonly string[]): FactSheet {
  const facts = new Map<SheetFactName, SheetFact>();
  const records: SheetRecord[] = [];
  const seen = new Set<string>();
  let section = "";
  let counted = true;
  let event: SheetFact | undefined;
  for (const line of lines) {
    const header = V19_HEADER.exec(line);
    if (header) {
      section = header[1]!.replaceAll(" ", "_");
      counted = !seen.has(section);
      seen.add(section);
      continue;
    }
    if (!counted) continue;
    if (section === "RAG_EVIDENCE_CONTEXT" && line.startsWith("- ")) {
      if (event === undefined && line.startsWith("- event ")) {
        event = { ref: section, value: line.slice("- event ".length).split(" ", 1)[0]! };
      }
      const decision = /\| decision ([A-Z_]+)/.exec(line)?.[1];
      if (decision) records.push({ ref: section, subject: undefined, decision });
      continue;
    }
    const colon = line.indexOf(": ");
    if (colon < 0) continue;
    const sheetName = V19_NAMES[`${section}.${line.slice(0, colon)}`];
    if (sheetName && !facts.has(sheetName))
      facts.set(sheetName, { ref: section, value: termOf(sheetName, line.slice(colon + 2)) });
  }
  return { layout: "v19-sections", facts, records, ...(event ? { event } : {}) };
}

const dash = (field: string | undefined) => (field === undefined || field === "-" ? undefined : field);
const termOf = (name: SheetFactName, value: string) =>
  name === "network" ? value.replace(/ \(.*\)$/, "") : value;
