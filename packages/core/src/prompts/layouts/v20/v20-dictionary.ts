/** How an entry's value is written (docs/prompt-v20-dictionary.md, "Forms"). */
export type ValueForm =
  | "text"
  | "list"
  | "instant"
  | "integer"
  | "bytes"
  | "seconds"
  | "yes-no"
  | "term"
  | "network";

/** What a missing value does: its own line, left out unless marked, or only named on the UNKNOWN line. */
export type MissingNote = "LINE" | "OMIT_UNLESS_MARKED" | "UNKNOWN_ONLY";

/** One fact the dictionary can draw. */
export interface DictionaryEntry {
  readonly key: string;
  readonly name: string;
  readonly source: string;
  readonly form: ValueForm;
  readonly missingText: string;
  readonly note: MissingNote;
}

/** One block of entries, with the most numbered lines it may carry. */
export interface DictionaryBlock {
  readonly name: string;
  readonly cap: number;
  readonly entries: readonly DictionaryEntry[];
}

/** The dictionary: its blocks in order, then the PAST RECORDS block's notation. */
export interface Dictionary {
  readonly version: string;
  readonly blocks: readonly DictionaryBlock[];
  readonly pastRecords: {
    readonly name: string;
    readonly cap: number;
    readonly fields: readonly string[];
    readonly order: string;
  };
}

const entry = (
  key: string,
  source: string,
  form: ValueForm,
  note: MissingNote = "LINE",
  missingText = "not provided",
): DictionaryEntry => ({ key, name: key.slice(key.indexOf(".") + 1), source, form, missingText, note });

/** The v20 dictionary (element B2). */
export const V20_DICTIONARY: Dictionary = {
  version: "v20-dictionary/1",
  blocks: [
    {
      name: "REQUEST",
      cap: 10,
      entries: [
        entry("request.subject", "request.subject", "text"),
        entry("request.time", "request.time", "instant"),
        entry("request.roles", "request.roles", "list"),
        entry("request.permissions", "request.permissions", "list"),
        entry("request.action", "vocabulary:action", "term", "LINE", "not established"),
        entry("request.target", "request.target", "text"),
        entry("request.size", "request.size", "bytes", "OMIT_UNLESS_MARKED"),
        entry("request.class", "vocabulary:resource-class", "term", "LINE", "not established"),
        entry("request.network", "vocabulary:network", "network", "LINE", "not established"),
        entry("request.device", "request.device", "text"),
      ],
    },
    {
      name: "IDENTITY",
      cap: 3,
      entries: [
        entry("identity.department", "identity.department", "text", "OMIT_UNLESS_MARKED"),
        entry("identity.account-age-days", "identity.accountAgeDays", "integer", "UNKNOWN_ONLY"),
        entry("identity.mfa-enrolled", "identity.mfaEnrolled", "yes-no", "UNKNOWN_ONLY"),
      ],
    },
    {
      name: "SESSION",
      cap: 3,
      entries: [
        entry("session.age", "session.ageSeconds", "seconds", "UNKNOWN_ONLY"),
        entry("session.requests", "session.requestCount", "integer", "OMIT_UNLESS_MARKED"),
        entry("session.mfa-completed", "session.mfaCompletedAt", "instant", "OMIT_UNLESS_MARKED"),
      ],
    },
    {
      name: "DEVICE",
      cap: 3,
      entries: [
        entry("device.trusted", "device.trusted", "yes-no", "LINE", "unknown"),
        entry("device.platform", "device.platform", "text", "OMIT_UNLESS_MARKED"),
        entry("device.first-seen", "device.firstSeen", "instant", "OMIT_UNLESS_MARKED"),
      ],
    },
    {
      name: "LOCATION",
      cap: 2,
      entries: [
        entry("location.country", "location.country", "text", "UNKNOWN_ONLY"),
        entry("location.asn", "location.asn", "text", "OMIT_UNLESS_MARKED"),
      ],
    },
    {
      name: "PATTERN",
      cap: 3,
      entries: [
        entry("pattern.usual-hours", "pattern.usualHours", "text", "OMIT_UNLESS_MARKED"),
        entry("pattern.usual-networks", "pattern.usualNetworks", "list", "OMIT_UNLESS_MARKED"),
        entry("pattern.usual-targets", "pattern.usualTargets", "list", "OMIT_UNLESS_MARKED"),
      ],
    },
  ],
  pastRecords: {
    name: "PAST RECORDS",
    cap: 6,
    fields: [
      "id",
      "time",
      "subject",
      "action",
      "target",
      "class",
      "network",
      "device",
      "decision",
      "risk",
      "confidence",
      "outcome",
    ],
    order: "same target first, then latest first (time, then id)",
  },
};

/** Every entry of `dictionary`, in dictionary order. */
export function dictionaryEntries(dictionary: Dictionary): DictionaryEntry[] {
  return dictionary.blocks.flatMap((b) => b.entries);
}
