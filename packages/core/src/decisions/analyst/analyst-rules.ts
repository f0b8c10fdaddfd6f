import type { FactSheet, SheetFact, SheetFactName } from "./fact-sheet.js";

/**
 * One rule of the offline analyst: a reason code, how much it adds to the risk score when it
 * holds, the facts it reads, and the facts it cites when it holds (undefined when it does not).
 * docs/security-decisions.md prints this table; a test keeps the two equal.
 */
export interface AnalystRule {
  readonly code: string;
  readonly weight: number;
  readonly reads: readonly SheetFactName[];
  /** In words, for the documentation. */
  readonly holdsWhen: string;
  holds(sheet: FactSheet): readonly SheetFact[] | undefined;
}

const fact = (sheet: FactSheet, name: SheetFactName) => sheet.facts.get(name);
const equals = (sheet: FactSheet, name: SheetFactName, ...values: string[]) => {
  const f = fact(sheet, name);
  return f && values.includes(f.value) ? [f] : undefined;
};
const HOUR_MS = 3_600_000;
const RISKY_DECISIONS = ["CHALLENGE", "ESCALATE", "BLOCK"];
/** Events that are the subject's own behaviour turning risky. */
const RISKY_EVENTS = ["REPEATED_DENIALS", "MFA_LOCKOUT"];

/** The rule table, in the order reasons are written. */
export const ANALYST_RULES: readonly AnalystRule[] = [
  {
    code: "EXTERNAL_NETWORK",
    weight: 0.25,
    reads: ["network"],
    holdsWhen: "the network term is EXTERNAL",
    holds: (s) => equals(s, "network", "EXTERNAL"),
  },
  {
    code: "UNUSUAL_NETWORK",
    weight: 0.1,
    reads: ["network", "usual-networks"],
    holdsWhen: "usual networks are listed and the network term is not among them",
    holds(s) {
      const network = fact(s, "network");
      const usual = fact(s, "usual-networks");
      if (!network || !usual) return undefined;
      return usual.value.split(", ").includes(network.value) ? undefined : [network, usual];
    },
  },
  {
    code: "ADMIN_ACTION",
    weight: 0.2,
    reads: ["action"],
    holdsWhen: "the action term is ADMIN",
    holds: (s) => equals(s, "action", "ADMIN"),
  },
  {
    code: "DESTRUCTIVE_ACTION",
    weight: 0.1,
    reads: ["action"],
    holdsWhen: "the action term is DELETE",
    holds: (s) => equals(s, "action", "DELETE"),
  },
  {
    code: "RESTRICTED_RESOURCE",
    weight: 0.15,
    reads: ["class"],
    holdsWhen: "the resource class is RESTRICTED",
    holds: (s) => equals(s, "class", "RESTRICTED"),
  },
  {
    code: "CONFIDENTIAL_RESOURCE",
    weight: 0.05,
    reads: ["class"],
    holdsWhen: "the resource class is CONFIDENTIAL",
    holds: (s) => equals(s, "class", "CONFIDENTIAL"),
  },
  {
    code: "UNTRUSTED_DEVICE",
    weight: 0.2,
    reads: ["device-trusted"],
    holdsWhen: "the device is marked not trusted (`no`)",
    holds: (s) => equals(s, "device-trusted", "no"),
  },
  {
    code: "NEW_DEVICE",
    weight: 0.1,
    reads: ["device-first-seen", "time"],
    holdsWhen: "the device was first seen less than one hour before the request time",
    holds(s) {
      const first = fact(s, "device-first-seen");
      const time = fact(s, "time");
      if (!first || !time) return undefined;
      const gap = Date.parse(time.value) - Date.parse(first.value);
      return gap >= 0 && gap < HOUR_MS ? [first, time] : undefined;
    },
  },
  {
    code: "NEW_ACCOUNT",
    weight: 0.1,
    reads: ["account-age-days"],
    holdsWhen: "the account is less than 30 days old",
    holds(s) {
      const age = fact(s, "account-age-days");
      return age && Number(age.value) < 30 ? [age] : undefined;
    },
  },
  {
    code: "NO_MFA_ENROLLED",
    weight: 0.1,
    reads: ["mfa-enrolled"],
    holdsWhen: "the subject has no second factor enrolled (`no`)",
    holds: (s) => equals(s, "mfa-enrolled", "no"),
  },
  {
    code: "RISKY_BEHAVIOUR_EVENT",
    weight: 0.25,
    reads: [],
    holdsWhen:
      "the prompt says the event is REPEATED_DENIALS or MFA_LOCKOUT (v19: the first `- event` line of the RAG evidence; v20 does not state the event)",
    holds: (s) => (s.event && RISKY_EVENTS.includes(s.event.value) ? [s.event] : undefined),
  },
  {
    code: "PRIOR_RISKY_DECISION",
    weight: 0.15,
    reads: [],
    holdsWhen:
      "a past record (v20: of the same subject, or of an unnamed one) was decided CHALLENGE, ESCALATE or BLOCK",
    holds(s) {
      const subject = fact(s, "subject")?.value;
      const risky = s.records.filter(
        (r) => RISKY_DECISIONS.includes(r.decision) && (r.subject === undefined || r.subject === subject),
      );
      const refs = [...new Set(risky.map((r) => r.ref))];
      return refs.length ? refs.map((ref) => ({ ref, value: "past record" })) : undefined;
    },
  },
];

/** The risk score before any rule holds. */
export const BASE_RISK = 0.05;

/** Risk bands, lowest first: a score below `below` takes `action`; the last band has no bound. */
export const RISK_BANDS = [
  { below: 0.3, action: "ALLOW" },
  { below: 0.55, action: "CHALLENGE" },
  { below: 0.8, action: "ESCALATE" },
  { below: Number.POSITIVE_INFINITY, action: "BLOCK" },
] as const;

/** Rules whose holding adds the MITRE ATT&CK technique T1078 (Valid Accounts) to the answer. */
export const VALID_ACCOUNTS_CODES = ["EXTERNAL_NETWORK", "UNTRUSTED_DEVICE", "NEW_DEVICE", "UNUSUAL_NETWORK"];
