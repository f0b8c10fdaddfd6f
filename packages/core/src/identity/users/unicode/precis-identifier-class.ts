import { CodePointRanges } from "./code-point-ranges.js";
import { UNASSIGNED_IN_CONFUSABLES_VERSION } from "./unicode-tables.generated.js";
import { codePointName, codePointsOf, type UsernameProblem } from "./username-problem.js";

// RFC 8264 section 9 derives the IdentifierClass from Unicode properties; the runtime's ICU answers
// them through these single-code-point tests (no quantifier, so nothing can backtrack).
const LETTER_DIGITS = /^[\p{Ll}\p{Lu}\p{Lo}\p{Nd}\p{Lm}\p{Mn}\p{Mc}]$/u;
const UNASSIGNED = /^\p{Cn}$/u;
const NONCHARACTER = /^\p{Noncharacter_Code_Point}$/u;
const DEFAULT_IGNORABLE = /^[\p{Default_Ignorable_Code_Point}\p{Join_Control}]$/u;
const CONTROL = /^\p{Cc}$/u;
const GREEK = /^\p{scx=Greek}$/u;
const HEBREW = /^\p{scx=Hebrew}$/u;
const JAPANESE = /^[\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Han}]$/u;

// RFC 5892 section 2.6 (the Exceptions PRECIS reuses), and the Hangul jamo of RFC 8264 9.9.
const EXCEPTION_PVALID = new Set([0xdf, 0x3c2, 0x6fd, 0x6fe, 0xf0b, 0x3007]);
const EXCEPTION_DISALLOWED = new Set([
  0x640, 0x7fa, 0x302e, 0x302f, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303b,
]);
const OLD_HANGUL_JAMO = new CodePointRanges("1100-11ff a960-a97c d7b0-d7c6 d7cb-d7fb");
const ARABIC_INDIC_DIGITS = new CodePointRanges("660-669");
const EXTENDED_ARABIC_INDIC_DIGITS = new CodePointRanges("6f0-6f9");
const NEWER_THAN_CONFUSABLES = new CodePointRanges(UNASSIGNED_IN_CONFUSABLES_VERSION);
// Phonetic Extensions (and their Supplement) and the Latin Extended-D small capitals: IPA and
// phonetic letters no name needs, several of which (U+1D00 small capital A) pass for Latin letters
// and have no mapping in the confusables data (fourth outside review).
const PHONETIC_LETTERS = new CodePointRanges("1d00-1dbf a730-a731");

type Verdict = "valid" | "contextual" | "disallowed" | "ignorable" | "unassigned";

/**
 * The first code point of `s` that the PRECIS IdentifierClass (RFC 8264, the class of RFC 8265's
 * UsernameCaseMapped profile) does not allow, as a problem naming it. Stricter than the class in three
 * ways: ZWJ and ZWNJ (CONTEXTJ) are refused with every other default-ignorable code point, and so is a
 * code point Unicode 13.0 (the version of the confusables data) had not assigned, and a phonetic letter
 * (U+1D00..U+1DBF, U+A730..U+A731: small capitals that pass for Latin letters).
 */
export function identifierClassProblem(s: string): UsernameProblem | undefined {
  const cps = codePointsOf(s);
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i] as number;
    const verdict = classify(cp);
    if (verdict === "valid" || (verdict === "contextual" && contextAllows(cps, i))) continue;
    return problemFor(verdict, cp);
  }
  return undefined;
}

function classify(cp: number): Verdict {
  if (EXCEPTION_PVALID.has(cp)) return "valid";
  if (cp === 0xb7 || cp === 0x375 || cp === 0x5f3 || cp === 0x5f4 || cp === 0x30fb) return "contextual";
  if (ARABIC_INDIC_DIGITS.has(cp) || EXTENDED_ARABIC_INDIC_DIGITS.has(cp)) return "contextual";
  if (EXCEPTION_DISALLOWED.has(cp)) return "disallowed";
  const ch = String.fromCodePoint(cp);
  if (UNASSIGNED.test(ch) && !NONCHARACTER.test(ch)) return "unassigned";
  if (cp >= 0x21 && cp <= 0x7e) return "valid";
  if (DEFAULT_IGNORABLE.test(ch) || NONCHARACTER.test(ch)) return "ignorable";
  if (OLD_HANGUL_JAMO.has(cp) || CONTROL.test(ch)) return "disallowed";
  if (NEWER_THAN_CONFUSABLES.has(cp)) return "unassigned";
  if (PHONETIC_LETTERS.has(cp)) return "disallowed";
  if (ch.normalize("NFKC") !== ch) return "disallowed";
  return LETTER_DIGITS.test(ch) ? "valid" : "disallowed";
}

/** The CONTEXTO rules of RFC 5892 Appendix A, for the code points `classify` calls contextual. */
function contextAllows(cps: readonly number[], i: number): boolean {
  const cp = cps[i] as number;
  const at = (j: number) => (cps[j] === undefined ? "" : String.fromCodePoint(cps[j] as number));
  if (cp === 0xb7) return cps[i - 1] === 0x6c && cps[i + 1] === 0x6c;
  if (cp === 0x375) return GREEK.test(at(i + 1));
  if (cp === 0x5f3 || cp === 0x5f4) return HEBREW.test(at(i - 1));
  if (cp === 0x30fb) return cps.some((c, j) => j !== i && c !== 0x30fb && JAPANESE.test(at(j)));
  if (ARABIC_INDIC_DIGITS.has(cp)) return !cps.some((c) => EXTENDED_ARABIC_INDIC_DIGITS.has(c));
  return !cps.some((c) => ARABIC_INDIC_DIGITS.has(c));
}

function problemFor(verdict: Exclude<Verdict, "valid">, cp: number): UsernameProblem {
  const name = codePointName(cp);
  if (verdict === "ignorable") {
    return {
      rule: "default-ignorable",
      message: `must not contain ${name}: invisible (default-ignorable) code points are refused`,
    };
  }
  if (verdict === "unassigned") {
    return {
      rule: "unassigned",
      message: `must not contain ${name}: only characters assigned by Unicode 13.0 are accepted`,
    };
  }
  return {
    rule: "identifier-class",
    message:
      `must not contain ${name}: a username holds letters, digits, combining marks and printable ASCII ` +
      "without spaces (RFC 8265 UsernameCaseMapped)",
  };
}
