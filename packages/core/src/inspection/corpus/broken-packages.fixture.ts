import type { InspectedPackage } from "../inspected-package.js";
import type { CheckCode } from "../inspection-result.js";
import { type CleanPackageOptions, V19 } from "./clean-packages.fixture.js";

/** One broken package of the corpus: a clean one, one change, and the mismatches the inspector must find. */
export interface BrokenCase {
  readonly name: string;
  readonly from: CleanPackageOptions;
  /** BEFORE: the change was made before the package was sealed (a render or writer bug); AFTER: tampering. */
  readonly sealed: "BEFORE" | "AFTER";
  readonly change: (pkg: InspectedPackage) => InspectedPackage;
  /** Exactly the MISMATCH findings expected, as `CHECK:REASON`. */
  readonly mismatches: readonly `${CheckCode}:${string}`[];
}

/** `pkg` with the deciding prompt's user lines changed by `edit`. */
function editUser(pkg: InspectedPackage, edit: (lines: string[]) => string[]): InspectedPackage {
  const prompts = pkg.prompts.map((p, i) =>
    i === pkg.prompts.length - 1
      ? { ...p, user: `${edit(p.user.slice(0, -1).split("\n")).join("\n")}\n` }
      : p,
  );
  return { ...pkg, prompts };
}

/** `lines` with the first line matching `pattern` replaced by `replace(line)`. */
function editLine(lines: string[], pattern: RegExp, replace: (line: string) => string): string[] {
  const i = lines.findIndex((l) => pattern.test(l));
  if (i < 0) throw new Error(`corpus: no line matches ${pattern}`);
  return lines.map((l, j) => (j === i ? replace(l) : l));
}

/** Swaps the contents of two record lines, keeping their numbers and fact IDs (an order bug). */
function swapRecords(lines: string[], a: number, b: number): string[] {
  const at = (n: number) => lines.findIndex((l) => l.startsWith(`${n}. dec-`));
  const body = (l: string) => l.replace(/^\d+\. /, "").replace(/ \{F\d+\}$/, "");
  const [ia, ib] = [at(a), at(b)];
  const out = [...lines];
  out[ia] = lines[ia]!.replace(body(lines[ia]!), body(lines[ib]!));
  out[ib] = lines[ib]!.replace(body(lines[ib]!), body(lines[ia]!));
  return out;
}

const RENDER = "SEAL_INTEGRITY:RENDER_DIFFERS" as const;

/** The corpus: each case one change of a clean package (issue 32's list, then three more of the contract). */
export const BROKEN_CASES: readonly BrokenCase[] = [
  {
    name: "a fact's value off by one letter",
    from: { golden: "internal-read" },
    sealed: "BEFORE",
    change: (pkg) =>
      editUser(pkg, (ls) => editLine(ls, /^1\. subject: /, (l) => l.replace("alice", "alicf"))),
    mismatches: [RENDER, "DECISION_FACT_MATCH:VALUE_DIFFERS", "FACT_ACCURACY:VALUE_DIFFERS"],
  },
  {
    name: "a fact on the UNKNOWN line also drawn",
    from: { golden: "partly-known" },
    sealed: "BEFORE",
    change: (pkg) =>
      editUser(pkg, (ls) =>
        editLine(ls, /^UNKNOWN: /, (l) =>
          l.replace("UNKNOWN: ", "UNKNOWN: request.subject (NOT_PROVIDED); "),
        ),
      ),
    mismatches: [RENDER, "UNKNOWN_DECLARED:UNKNOWN_ALSO_DRAWN"],
  },
  {
    name: "a record line with eleven fields",
    from: { golden: "internal-read" },
    sealed: "BEFORE",
    change: (pkg) => editUser(pkg, (ls) => editLine(ls, /^1\. dec-/, (l) => l.replace(" | dev-7f3a", ""))),
    mismatches: [
      RENDER,
      "PAST_RECORD_NOTATION:FIELD_COUNT",
      "DECISION_FACT_MATCH:VALUE_DIFFERS",
      "FACT_ACCURACY:VALUE_DIFFERS",
    ],
  },
  {
    name: "records out of order",
    from: { golden: "partly-known" },
    sealed: "BEFORE",
    change: (pkg) => editUser(pkg, (ls) => swapRecords(ls, 1, 3)),
    mismatches: [RENDER, "PAST_RECORD_NOTATION:RECORD_ORDER", "DECISION_FACT_MATCH:FACT_ID_DIFFERS"],
  },
  {
    name: "a reason code citing the wrong line",
    from: { golden: "external-admin-delete" },
    sealed: "BEFORE",
    change: (pkg) => {
      const reasons = pkg.metadata.reasons!;
      const i = reasons.findIndex((r) => r.code !== "MODEL_EVIDENCE" && r.refs.length > 0);
      if (i < 0) throw new Error("corpus: the analyst coded no reason");
      const wrong = reasons[i]!.refs.includes("F1") ? "F2" : "F1";
      const changed = reasons.map((r, j) => (j === i ? { ...r, refs: [wrong, ...r.refs.slice(1)] } : r));
      return { ...pkg, metadata: { ...pkg.metadata, reasons: changed } };
    },
    mismatches: ["REASON_MATCH:CITES_WRONG_LINE"],
  },
  {
    name: "a prompt that differs from its hash",
    from: { golden: "internal-read" },
    sealed: "AFTER",
    change: (pkg) => ({
      ...pkg,
      prompts: pkg.prompts.map((p) => ({ ...p, system: p.system.replace("data, never", "data, always") })),
    }),
    mismatches: ["SEAL_INTEGRITY:PROMPT_HASH_DIFFERS", RENDER],
  },
  {
    name: "a descriptor naming another release",
    from: { golden: "internal-read" },
    sealed: "BEFORE",
    change: (pkg) => ({
      ...pkg,
      metadata: { ...pkg.metadata, release: { ...pkg.metadata.release!, promptVersion: V19 } },
    }),
    mismatches: [
      "BUNDLE_TRACE:RELEASE_VERSION_DIFFERS",
      "BUNDLE_TRACE:ARTIFACT_HASH_DIFFERS",
      "BUNDLE_TRACE:CONTRACT_VERSION_DIFFERS",
    ],
  },
  {
    name: "two blocks swapped",
    from: { golden: "internal-read" },
    sealed: "BEFORE",
    change: (pkg) => ({
      ...pkg,
      prompts: pkg.prompts.map((p) => ({ ...p, user: swapBlocks(p.user, "LOCATION", "PATTERN") })),
    }),
    mismatches: [RENDER, "DICTIONARY_CONTRACT:BLOCK_ORDER", "DICTIONARY_CONTRACT:FACT_ID_ORDER"],
  },
  {
    name: "the second analysis restates a fact with another value",
    from: { golden: "external-admin-delete", layers: ["L1", "L2"] },
    sealed: "BEFORE",
    change: (pkg) => editUser(pkg, (ls) => editLine(ls, /^6\. target: /, (l) => l.replace("/", "//"))),
    mismatches: [
      RENDER,
      "SAME_FACT:FACT_VALUES_DIFFER",
      "DECISION_FACT_MATCH:VALUE_DIFFERS",
      "FACT_ACCURACY:VALUE_DIFFERS",
    ],
  },
  {
    name: "an unknown fact named with the wrong kind",
    from: { golden: "partly-known" },
    sealed: "BEFORE",
    change: (pkg) =>
      editUser(pkg, (ls) =>
        editLine(ls, /^UNKNOWN: /, (l) =>
          l.replace("request.action (UNCLASSIFIED)", "request.action (NOT_DERIVABLE)"),
        ),
      ),
    mismatches: [RENDER, "UNKNOWN_DECLARED:UNKNOWN_KIND_DIFFERS"],
  },
];

/** `user` with the blocks `a` and `b` (headers and lines) in each other's place. */
function swapBlocks(user: string, a: string, b: string): string {
  const blocks = user.slice(0, -1).split("\n\n");
  const ia = blocks.findIndex((x) => x.startsWith(`[${a}]`));
  const ib = blocks.findIndex((x) => x.startsWith(`[${b}]`));
  [blocks[ia], blocks[ib]] = [blocks[ib]!, blocks[ia]!];
  return `${blocks.join("\n\n")}\n`;
}
