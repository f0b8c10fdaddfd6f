import { createRequire } from "node:module";

const DEFAULT_IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;
let prototypes: ReadonlyMap<string, string> | undefined;

/**
 * The prototypes of UTS #39's confusables.txt (version 13.0.0, as the `unhomoglyph` package ships it:
 * one entry per source code point), loaded on first use.
 */
function confusablePrototypes(): ReadonlyMap<string, string> {
  if (prototypes) return prototypes;
  const data = createRequire(import.meta.url)("unhomoglyph/data.json") as Record<string, unknown>;
  const map = new Map<string, string>();
  for (const [source, prototype] of Object.entries(data)) {
    if (typeof prototype === "string") map.set(source, prototype);
  }
  prototypes = map;
  return map;
}

/**
 * The confusable skeleton of UTS #39 section 4: NFD, default-ignorable code points removed, each code
 * point replaced by its prototype, NFD again. Two strings with the same skeleton look alike (`аdmin`
 * with a Cyrillic а and `admin`; `m` and `rn`). Not for display: it only tells names apart.
 */
export function confusableSkeleton(s: string): string {
  const map = confusablePrototypes();
  let out = "";
  for (const ch of s.normalize("NFD")) {
    if (DEFAULT_IGNORABLE.test(ch)) continue;
    out += map.get(ch) ?? ch;
  }
  return out.normalize("NFD");
}
