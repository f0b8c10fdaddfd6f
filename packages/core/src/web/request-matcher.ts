import { PlatformError } from "../kernel/platform-error.js";
import { compilePathPattern, type PathPattern } from "./path-pattern.js";

/** An HTTP method a matcher can be restricted to. */
export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS" | "TRACE";

/** The part of a request a matcher looks at: the method and the path without its query string. */
export interface MatchableRequest {
  method: string;
  path: string;
  /**
   * The path split into segments (splitPath), when the caller has them: an HttpExchange's, split
   * once per request and read by every matcher. Absent, a path matcher splits `path` itself.
   */
  readonly segments?: readonly string[] | undefined;
}

/** Decides whether a request belongs to a rule (a filter chain, an authorization rule, a CSRF exemption). */
export interface RequestMatcher {
  /** True when the request is one this matcher selects. */
  matches(req: MatchableRequest): boolean;
  /** A human-readable form such as `POST /login` or `ANY /api/**`, for logs and errors. */
  readonly description: string;
  /** The compiled path pattern of a path matcher (`antMatcher`), so one match can also yield its variables. */
  readonly pattern?: PathPattern | undefined;
}

/** What an antMatcher tests: its compiled pattern and its method (undefined: ANY). */
export interface PlainMatcher {
  readonly pattern: PathPattern;
  /** The upper-case method; GET also takes HEAD. Undefined: any method. */
  readonly method: string | undefined;
}

/**
 * antMatchers and what they test: an orMatcher, the chain selection and the authorization filter
 * test such a matcher's pattern and method inline instead of calling its closure.
 */
const PLAIN = new WeakMap<RequestMatcher, PlainMatcher>();

/** notMatchers and the matcher each negates: an orMatcher applies the negation itself. */
const NEGATED = new WeakMap<RequestMatcher, RequestMatcher>();

/**
 * The pattern and method of an antMatcher, whose `matches(req)` is exactly: the method admits the
 * request's (plainMethodAdmits), and `req.segments !== undefined ? pattern.test(req.segments) :
 * pattern.matches(req.path)`; undefined for any other matcher. Internal to the core.
 */
export function plainMatcher(matcher: RequestMatcher): PlainMatcher | undefined {
  return PLAIN.get(matcher);
}

/**
 * One alternative of a matcher in compiled form: it holds when one of `plains` matches (see
 * plainMatcher), or, `negated`, when none does.
 */
export interface PlainAlternative {
  readonly plains: readonly PlainMatcher[];
  readonly negated: boolean;
}

/** orMatchers made of antMatchers and negated antMatchers (or such lists), in compiled form. */
const ALTERNATIVES = new WeakMap<RequestMatcher, readonly PlainAlternative[]>();

/**
 * A matcher in compiled form, when it is an antMatcher, or an orMatcher whose members are
 * antMatchers, notMatchers of an antMatcher or of an orMatcher of antMatchers, or such orMatchers:
 * it matches a request with segments exactly when one alternative holds. Undefined for any other
 * matcher. Internal to the core: the chain selection tests the alternatives inline.
 */
export function plainAlternatives(matcher: RequestMatcher): readonly PlainAlternative[] | undefined {
  const plain = PLAIN.get(matcher);
  return plain !== undefined ? [{ plains: [plain], negated: false }] : ALTERNATIVES.get(matcher);
}

/** The antMatchers a matcher is the union of (an antMatcher, or an orMatcher of them), else undefined. */
function positivePlains(matcher: RequestMatcher): readonly PlainMatcher[] | undefined {
  const alternatives = plainAlternatives(matcher);
  if (alternatives === undefined || alternatives.some((a) => a.negated)) return undefined;
  return alternatives.flatMap((a) => a.plains);
}

/** An orMatcher's members in compiled form (see plainAlternatives), or undefined when one has none. */
function compileAlternatives(members: readonly RequestMatcher[]): PlainAlternative[] | undefined {
  const out: PlainAlternative[] = [];
  for (const member of members) {
    const negated = NEGATED.get(member);
    const inner = negated === undefined ? plainAlternatives(member) : undefined;
    if (inner !== undefined) {
      out.push(...inner);
      continue;
    }
    const plains = negated === undefined ? undefined : positivePlains(negated);
    if (plains === undefined) return undefined;
    out.push({ plains, negated: true });
  }
  return out;
}

/** The path-only pattern of an antMatcher with method ANY (see plainMatcher), else undefined. */
export function pathOnlyPattern(matcher: RequestMatcher): PathPattern | undefined {
  const plain = PLAIN.get(matcher);
  return plain !== undefined && plain.method === undefined ? plain.pattern : undefined;
}

const METHODS: ReadonlySet<string> = new Set<HttpMethod>([
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "TRACE",
]);

/**
 * Matches requests whose path matches a path pattern (compilePathPattern: `/api/**`, `/users/{id}`;
 * no partial-segment wildcard) and, unless `method` is ANY, whose method is `method` (request side
 * compared case-insensitively; a GET matcher also takes HEAD, which the GET route answers). Throws
 * CONFIGURATION_INVALID.
 */
export function antMatcher(pattern: string, method: HttpMethod | "ANY" = "ANY"): RequestMatcher {
  const compiled = compilePathPattern(pattern, "matcher");
  const wanted = String(method).toUpperCase();
  if (wanted !== "ANY" && !METHODS.has(wanted)) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `Unknown HTTP method '${String(method)}' for '${pattern}'`,
      {
        details: { pattern, method: String(method) },
      },
    );
  }
  const description = `${wanted} ${pattern}`;
  // The request's segments when it has them (an exchange's, split once), else its path split here.
  // Written out in both closures: a helper would be one more call per matcher on the request path.
  if (wanted === "ANY") {
    const matcher: RequestMatcher = {
      description,
      pattern: compiled,
      matches: (req) =>
        req.segments !== undefined ? compiled.test(req.segments) : compiled.matches(req.path),
    };
    PLAIN.set(matcher, { pattern: compiled, method: undefined });
    return matcher;
  }
  // HEAD is answered by the GET route (h3 and the route table), so a GET matcher covers HEAD too:
  // a rule written for GET must not leave the same handler open under HEAD.
  const head = wanted === "GET";
  const matcher: RequestMatcher = {
    description,
    pattern: compiled,
    matches: (req) =>
      (req.method === wanted || req.method.toUpperCase() === wanted || (head && req.method === "HEAD")) &&
      (req.segments !== undefined ? compiled.test(req.segments) : compiled.matches(req.path)),
  };
  PLAIN.set(matcher, { pattern: compiled, method: wanted });
  return matcher;
}

const ANY_REQUEST: RequestMatcher = Object.freeze({ description: "any request", matches: () => true });

/** Matches every request (the catch-all last rule). */
export function anyRequest(): RequestMatcher {
  return ANY_REQUEST;
}

/** Matches when at least one matcher does; needs at least one, so an empty list never opens access. */
export function orMatcher(...matchers: RequestMatcher[]): RequestMatcher {
  const list = nonEmpty("orMatcher", matchers);
  const plains = list.map(plainMatcher);
  const inverses = list.map((m) => NEGATED.get(m));
  const matcher: RequestMatcher = {
    description: joinDescriptions(list, "or"),
    // A loop, not `some` with a callback; an antMatcher member's method and pattern, and a notMatcher
    // member's negation, are applied here: one function of ours per request, not one per member.
    matches: (req) => {
      const segments = req.segments;
      for (let i = 0; i < list.length; i++) {
        const plain = plains[i];
        if (plain === undefined) {
          const negated = inverses[i];
          if (negated !== undefined ? !negated.matches(req) : (list[i] as RequestMatcher).matches(req))
            return true;
          continue;
        }
        const method = plain.method;
        if (
          (method === undefined ||
            req.method === method ||
            req.method.toUpperCase() === method ||
            (method === "GET" && req.method === "HEAD")) &&
          (segments !== undefined ? plain.pattern.test(segments) : plain.pattern.matches(req.path))
        )
          return true;
      }
      return false;
    },
  };
  const compiled = compileAlternatives(list);
  if (compiled !== undefined) ALTERNATIVES.set(matcher, compiled);
  return matcher;
}

/** Matches when every matcher does; needs at least one, so an empty list is not a vacuous match-all. */
export function andMatcher(...matchers: RequestMatcher[]): RequestMatcher {
  const list = nonEmpty("andMatcher", matchers);
  return {
    description: joinDescriptions(list, "and"),
    matches: (req) => {
      for (let i = 0; i < list.length; i++) if (!(list[i] as RequestMatcher).matches(req)) return false;
      return true;
    },
  };
}

/** Matches exactly the requests `matcher` does not. */
export function notMatcher(matcher: RequestMatcher): RequestMatcher {
  const negation: RequestMatcher = {
    description: `not ${matcher.description}`,
    matches: (req) => !matcher.matches(req),
  };
  NEGATED.set(negation, matcher);
  return negation;
}

function nonEmpty(helper: string, matchers: RequestMatcher[]): readonly RequestMatcher[] {
  if (matchers.length === 0) {
    throw new PlatformError("CONFIGURATION_INVALID", `${helper}() needs at least one matcher`);
  }
  return [...matchers];
}

function joinDescriptions(list: readonly RequestMatcher[], word: string): string {
  return list.length === 1 ? list[0]!.description : `(${list.map((m) => m.description).join(` ${word} `)})`;
}
