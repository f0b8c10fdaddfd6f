import { deriveFacts } from "../../facts/derived-facts.js";
import type { PastRecordInput, PromptInput } from "../../input/prompt-input.js";

/** How much a section matters when the user prompt must be cut: P0 is never cut, P2 goes first. */
export type SectionPriority = "P0" | "P1" | "P2";

/** One user section of the v19 layout: its name, priority class and the lines it draws. */
export interface V19Section {
  readonly name: string;
  readonly priority: SectionPriority;
  /** The section's lines for `input`; an empty list is an empty section. */
  lines(input: PromptInput, limits: V19Limits): string[];
}

/** The retrieval limits a v19 render applies (from element B7). */
export interface V19Limits {
  /** Past records drawn into RAG_EVIDENCE_CONTEXT, most recent first. */
  readonly ragRecords: number;
  /** Lines of free text kept per context list. */
  readonly notesPerSection: number;
  /** Characters of one free-text line; longer lines end with "…". */
  readonly noteChars: number;
}

/** The header of a section: `=== CURRENT REQUEST AND EVENT ===`. */
export function sectionHeader(name: string): string {
  return `=== ${name.replaceAll("_", " ")} ===`;
}

const line = (key: string, value: string | number | boolean | undefined): string[] =>
  value === undefined ? [] : [`${key}: ${typeof value === "boolean" ? (value ? "yes" : "no") : value}`];
const list = (key: string, values: readonly string[] | undefined): string[] =>
  values === undefined ? [] : [`${key}: ${values.length ? values.join(", ") : "(empty)"}`];
const notes = (values: readonly string[] | undefined, limits: V19Limits): string[] =>
  (values ?? [])
    .slice(0, limits.notesPerSection)
    .map((v) => `- ${v.length > limits.noteChars ? `${v.slice(0, limits.noteChars - 1)}…` : v}`);

function pastRecordLine(r: PastRecordInput): string {
  const parts = [r.time, r.method, r.target, `decision ${r.decision}`];
  if (r.riskScore !== undefined) parts.push(`risk ${r.riskScore}`);
  if (r.outcome !== undefined) parts.push(`outcome ${r.outcome}`);
  return `- ${parts.filter((p) => p !== undefined).join(" | ")}`;
}

/** The facts a P0 section needs and the input lacks, named in EXPLICIT_MISSING_KNOWLEDGE. */
export function missingKnowledge(input: PromptInput): string[] {
  const facts = deriveFacts(input);
  const r = input.request;
  const missing: [string, unknown][] = [
    ["subject", r.subject],
    ["time", r.time],
    ["roles", r.roles],
    ["action", facts.action],
    ["target", r.target],
    ["resource class", facts.resourceClass],
    ["network", facts.networkTerm],
    ["device", r.device],
  ];
  const names = missing.filter(([, v]) => v === undefined).map(([k]) => k);
  for (const marked of input.markedMissing) if (!names.includes(marked)) names.push(marked);
  return names.map((n) => `- ${n}: not known`);
}

/** The sixteen user sections of the v19 layout, in render order. */
export const V19_SECTIONS: readonly V19Section[] = [
  {
    name: "CURRENT_REQUEST_AND_EVENT",
    priority: "P0",
    lines: (i) => [
      ...line("event", i.eventId),
      ...line("time", i.request.time),
      ...line("method", i.request.method),
      ...line("target", i.request.target),
      ...line("size bytes", i.request.size),
    ],
  },
  { name: "BRIDGE_AND_COVERAGE", priority: "P1", lines: (i) => list("sources", i.context.coverage) },
  {
    name: "IDENTITY_AND_ROLE",
    priority: "P0",
    lines: (i) => [
      ...line("subject", i.request.subject),
      ...list("roles", i.request.roles),
      ...list("permissions", i.request.permissions),
      ...line("department", i.identity.department),
      ...line("account age days", i.identity.accountAgeDays),
      ...line("mfa enrolled", i.identity.mfaEnrolled),
    ],
  },
  {
    name: "DEVICE_CONTEXT",
    priority: "P1",
    lines: (i) => [
      ...line("device", i.request.device),
      ...line("trusted", i.device.trusted),
      ...line("platform", i.device.platform),
      ...line("first seen", i.device.firstSeen),
    ],
  },
  {
    name: "LOCATION_CONTEXT",
    priority: "P1",
    lines: (i) => [
      ...line("address", i.request.network),
      ...line("network", deriveFacts(i).networkTerm),
      ...line("country", i.location.country),
      ...line("asn", i.location.asn),
    ],
  },
  {
    name: "RESOURCE_AND_ACTION",
    priority: "P0",
    lines: (i) => {
      const f = deriveFacts(i);
      return [
        ...line("action", f.action),
        ...line("target", i.request.target),
        ...line("resource class", f.resourceClass),
      ];
    },
  },
  {
    name: "SESSION_NARRATIVE",
    priority: "P1",
    lines: (i) => [
      ...line("session age seconds", i.session.ageSeconds),
      ...line("requests in session", i.session.requestCount),
      ...line("mfa completed at", i.session.mfaCompletedAt),
    ],
  },
  {
    name: "OBSERVED_AND_PERSONAL_WORK_PATTERN",
    priority: "P1",
    lines: (i) => [
      ...line("usual hours", i.pattern.usualHours),
      ...list("usual networks", i.pattern.usualNetworks),
      ...list("usual targets", i.pattern.usualTargets),
    ],
  },
  {
    name: "RAG_EVIDENCE_CONTEXT",
    priority: "P2",
    lines: (i, l) => [
      ...[...i.pastRecords]
        .sort((a, b) => b.time.localeCompare(a.time))
        .slice(0, l.ragRecords)
        .map(pastRecordLine),
      ...notes(i.context.evidence, l),
    ],
  },
  { name: "SUPPORTING_LEARNING_CONTEXT", priority: "P2", lines: (i, l) => notes(i.context.learning, l) },
  { name: "ROLE_SCOPE", priority: "P1", lines: (i, l) => notes(i.context.roleScope, l) },
  { name: "FRICTION_AND_APPROVAL", priority: "P2", lines: (i, l) => notes(i.context.friction, l) },
  { name: "DELEGATED_OBJECTIVE", priority: "P2", lines: (i, l) => notes(i.context.delegation, l) },
  { name: "THREAT_LEARNING_AND_MEMORY", priority: "P1", lines: (i, l) => notes(i.context.threatMemory, l) },
  { name: "EXPLICIT_MISSING_KNOWLEDGE", priority: "P0", lines: (i) => missingKnowledge(i) },
  { name: "INTENT_SIGNAL_CONTEXT", priority: "P2", lines: (i, l) => notes(i.context.intent, l) },
];
