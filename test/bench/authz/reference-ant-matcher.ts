/**
 * The bench's own Ant matcher: one anchored RegExp per pattern, written from the Ant rules and
 * sharing nothing with packages/core/src/web. `?` is one character, `*` any run inside a segment, a
 * segment that is exactly `**` zero or more whole segments, `{name}` a non-empty segment part and
 * `{name:regex}` a segment part matching `regex` (never a `/`).
 */
export interface ReferenceAntPattern {
  readonly pattern: string;
  readonly regex: RegExp;
  /** Whole literal segments every matching path starts with (`/api/v1/orders` for `/api/v1/orders/{id}`). */
  readonly literalPrefix: string;
  matches(path: string): boolean;
}

/** Compiles an Ant pattern; throws on a pattern the reference does not understand. */
export function compileReferenceAntPattern(pattern: string): ReferenceAntPattern {
  if (!pattern.startsWith("/")) throw new Error(`reference ant: '${pattern}' must start with '/'`);
  const segments = splitSegments(pattern);
  let source = "^";
  let prefix = "";
  let literal = true;
  for (const segment of segments) {
    if (segment === "**") {
      // Each repetition eats one whole segment `/…`; zero repetitions let `/a/**` match `/a`.
      source += "(?:/[^/]*)*";
      literal = false;
      continue;
    }
    const wild = /[*?{]/.test(segment);
    if (literal && !wild) prefix += `/${segment}`;
    if (wild) literal = false;
    source += `/${segmentSource(pattern, segment)}`;
  }
  const regex = new RegExp(`${source}$`);
  return {
    pattern,
    regex,
    literalPrefix: prefix,
    matches: (path) => regex.test(path === "" ? "/" : path),
  };
}

/** Splits after the leading '/', ignoring slashes inside `{…}` (a variable regex never holds one anyway). */
function splitSegments(pattern: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (let i = 1; i < pattern.length; i++) {
    const c = pattern.charAt(i);
    if (c === "\\" && depth > 0) {
      current += c + pattern.charAt(i + 1);
      i++;
      continue;
    }
    if (c === "{") depth++;
    if (c === "}") depth--;
    if (c === "/" && depth === 0) {
      out.push(current);
      current = "";
    } else {
      current += c;
    }
  }
  out.push(current);
  return out;
}

function segmentSource(pattern: string, segment: string): string {
  let out = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charAt(i);
    if (c === "*") {
      while (segment.charAt(i + 1) === "*") i++;
      out += "[^/]*";
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "{") {
      const close = matchingBrace(pattern, segment, i);
      const body = segment.slice(i + 1, close);
      const colon = body.indexOf(":");
      out += colon === -1 ? "[^/]+" : `(?:${confineToSegment(pattern, body.slice(colon + 1))})`;
      i = close;
    } else {
      out += c.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
    }
  }
  return out;
}

function matchingBrace(pattern: string, segment: string, open: number): number {
  let depth = 0;
  for (let j = open; j < segment.length; j++) {
    const c = segment.charAt(j);
    if (c === "\\") j++;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return j;
  }
  throw new Error(`reference ant: unclosed '{' in '${pattern}'`);
}

/**
 * Rewrites a variable's regex so it cannot match '/', which is what running it on one segment means:
 * `.` → `[^/]`, `\D \W \S` → classes without '/', negated classes get '/' added.
 */
function confineToSegment(pattern: string, regex: string): string {
  if (regex === "") throw new Error(`reference ant: empty variable regex in '${pattern}'`);
  let out = "";
  let inClass = false;
  for (let i = 0; i < regex.length; i++) {
    const c = regex.charAt(i);
    if (c === "\\") {
      const next = regex.charAt(i + 1);
      i++;
      if (/[1-9k]/.test(next)) throw new Error(`reference ant: backreference in '${pattern}'`);
      if ("DWS".includes(next)) {
        if (inClass)
          throw new Error(`reference ant: \\${next} inside a class is not supported ('${pattern}')`);
        out += `[^\\${next.toLowerCase()}/]`;
      } else {
        out += c + next;
      }
    } else if (inClass) {
      if (c === "]") {
        inClass = false;
      }
      out += c;
    } else if (c === "[") {
      inClass = true;
      if (regex.charAt(i + 1) === "^") {
        out += "[^/";
        i++;
      } else {
        out += c;
      }
    } else if (c === ".") {
      out += "[^/]";
    } else if (c === "/") {
      throw new Error(`reference ant: '/' in a variable regex ('${pattern}')`);
    } else {
      out += c;
    }
  }
  return out;
}
