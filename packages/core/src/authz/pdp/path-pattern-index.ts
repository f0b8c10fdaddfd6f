import {
  compilePathPattern,
  type PathPattern,
  type PatternSegment,
  splitPath,
} from "../../web/path-pattern.js";
import { FlatPathTrie } from "./flat-path-trie.js";

/** No extra fields (the default of the `hot` mixin). */
// biome-ignore lint/complexity/noBannedTypes: the empty default of an optional mixin
export type NoHotFields = {};

/**
 * One indexed URL target: its compiled pattern, its method (`ANY` for all), the rank of its policy,
 * and the caller's hot fields copied onto it (`add(..., hot)`): what a lookup's caller reads next
 * sits in the same object, laid out with its neighbours by the flat trie.
 */
export type IndexedTarget<T, H extends object = NoHotFields> = IndexedTargetBase<T> & Readonly<H>;

/** The index's own fields of a target. */
export interface IndexedTargetBase<T> {
  readonly pattern: PathPattern;
  /** Upper-case HTTP method, or `ANY`. */
  readonly method: string;
  /** Evaluation order of the owning policy (0 first). */
  readonly rank: number;
  readonly value: T;
  /**
   * True when reaching the target in the trie proves the match (only literal, `*`, `{name}` and a
   * trailing `**` segments): its compiled pattern is then not run again.
   */
  readonly exact: boolean;
}

export interface TrieNode<T, H extends object> {
  /**
   * The only literal child, kept inline: a lookup compares it in place (no substring, no Map), and
   * large policy sets touch fewer cold objects. A second literal child moves both into `literal`.
   */
  onlyKey: string | undefined;
  only: TrieNode<T, H> | undefined;
  literal: Map<string, TrieNode<T, H>> | undefined;
  /** Whole-segment `{name}`: any non-empty segment. */
  named: TrieNode<T, H> | undefined;
  /** `*` (any segment, proved by the walk) and the others (`{id:\\d+}`, `a*`, `t?st`: confirmed by the pattern). */
  wild: TrieNode<T, H> | undefined;
  /** The first target ending exactly here, inline (most nodes end one or two); the rest in `terminal`. */
  terminal1: IndexedTarget<T, H> | undefined;
  /** Further targets ending exactly here. */
  terminal: IndexedTarget<T, H>[] | undefined;
  /** Targets with `**` at this depth (matching here and anywhere below). */
  deep: IndexedTarget<T, H>[] | undefined;
}

const node = <T, H extends object>(): TrieNode<T, H> => ({
  onlyKey: undefined,
  only: undefined,
  literal: undefined,
  named: undefined,
  wild: undefined,
  // Created on first use: most nodes hold none, and a lookup should not touch empty arrays.
  terminal1: undefined,
  terminal: undefined,
  deep: undefined,
});

/** A variable without a regex: matches exactly the non-empty segments. */
const isNamed = (s: PatternSegment): boolean => s.kind === "variable" && s.regex === undefined;

/** True when the trie's walk alone proves the segment (`*` takes the wild branch, which takes any). */
const isProved = (s: PatternSegment, last: boolean): boolean =>
  s.kind === "literal" || s.kind === "any" || isNamed(s) || (s.kind === "rest" && last);

/**
 * A path-segment trie over policy targets, built from their compiled segments (compilePathPattern):
 * a lookup walks the request path once and returns only the targets whose literal segments agree
 * with it, so its cost grows with the path's depth and the number of overlapping patterns, not with
 * the number of policies. Targets made only of literals, `*`, `{name}`s and a trailing `**` are
 * proved by the walk itself; every other candidate is confirmed by its compiled pattern (the one
 * source of the path language's semantics). A randomized test holds the index equal to a linear scan.
 */
export class PathPatternIndex<T, H extends object = NoHotFields> {
  private readonly root: TrieNode<T, H> = node();
  private size = 0;
  /** The flat lookup layout, built on the first lookup after the last `add`. */
  private flat: FlatPathTrie<T, H> | undefined;
  /** Scratch buffer reused by `candidates` (lookups are synchronous, so this is never shared). */
  private readonly scratch: IndexedTarget<T, H>[] = [];

  /**
   * Adds a policy target: a pattern text (compiled for a policy target; CONFIGURATION_INVALID when
   * malformed) or an already compiled pattern. The trie is keyed by its compiled segments, whose
   * literals are canonical (`/a/` is `/a`), as the paths it walks.
   */
  add(pattern: string | PathPattern, method: string, rank: number, value: T, hot?: H): IndexedTarget<T, H> {
    this.flat = undefined;
    const compiled = typeof pattern === "string" ? compilePathPattern(pattern, "policy") : pattern;
    const segments = compiled.segments;
    const last = segments.length - 1;
    const target = {
      pattern: compiled,
      method: method.toUpperCase(),
      rank,
      value,
      exact: segments.every((s, i) => isProved(s, i === last)),
      ...hot,
    } as IndexedTarget<T, H>;
    let at = this.root;
    for (const segment of segments) {
      if (segment.kind === "rest") {
        at.deep ??= [];
        at.deep.push(target);
        this.size++;
        return target;
      }
      if (segment.kind === "literal") {
        at = literalChild(at, segment.text);
      } else if (isNamed(segment)) {
        at.named ??= node();
        at = at.named;
      } else {
        at.wild ??= node();
        at = at.wild;
      }
    }
    if (at.terminal1 === undefined) at.terminal1 = target;
    else {
      at.terminal ??= [];
      at.terminal.push(target);
    }
    this.size++;
    return target;
  }

  /** How many targets are indexed. */
  get count(): number {
    return this.size;
  }

  /**
   * The targets whose pattern matches `path` and whose method admits `method`, in rank order. `parts`
   * is the path split into segments (an exchange's `segments`, split once per request); without them
   * the path is split here. The returned array is reused by the next call: read it before calling again.
   */
  matching(
    path: string,
    method: string,
    parts: readonly string[] | undefined = segmentsOf(path),
  ): readonly IndexedTarget<T, H>[] {
    const out = this.scratch;
    out.length = 0;
    if (parts === undefined) return out;
    this.layout().collect(parts, out);
    let n = 0;
    for (let i = 0; i < out.length; i++) {
      const t = out[i]!;
      if (admits(t.method, method) && (t.exact || t.pattern.test(parts))) out[n++] = t;
    }
    out.length = n;
    if (n > 1) sortByRank(out);
    return out;
  }

  /** The flat layout of the current trie (built once after the last `add`). */
  private layout(): FlatPathTrie<T, H> {
    this.flat ??= new FlatPathTrie(this.root);
    return this.flat;
  }

  /**
   * Every target the trie cannot rule out for a path split into segments, unconfirmed and unsorted
   * (a fresh array). Fed a pattern's text split the same way (`splitPath(pattern.source)`), it yields
   * every target that could cover that pattern (literal segments meet equal literals, wildcards meet
   * wildcards, `**` catches all below): shadow detection confirms them with `covers`.
   */
  candidates(parts: readonly string[]): IndexedTarget<T, H>[] {
    const out: IndexedTarget<T, H>[] = [];
    this.layout().collect(parts, out);
    return out;
  }

  /**
   * The first (lowest-rank) target matching `path` and `method`, or undefined: the FIRST_APPLICABLE
   * lookup. It confirms candidates in rank order and stops at the first match. `parts` as for `matching`.
   */
  first(
    path: string,
    method: string,
    parts: readonly string[] | undefined = segmentsOf(path),
  ): IndexedTarget<T, H> | undefined {
    if (parts === undefined) return undefined;
    const out = this.scratch;
    out.length = 0;
    // layout() and admits(), inline: this is the FIRST_APPLICABLE lookup of every request.
    this.flat ??= new FlatPathTrie(this.root);
    this.flat.collect(parts, out);
    if (out.length > 1) sortByRank(out);
    for (let i = 0; i < out.length; i++) {
      const t = out[i]!;
      const m = t.method;
      if (
        (m === method || m === "ANY" || (m === "GET" && method === "HEAD")) &&
        (t.exact || t.pattern.test(parts))
      ) {
        out.length = 0;
        return t;
      }
    }
    out.length = 0;
    return undefined;
  }
}

/** A path's segments, or undefined when it does not start with `/` (no target matches it; `` is `/`). */
function segmentsOf(path: string): readonly string[] | undefined {
  return path === "" || path.charCodeAt(0) === 47 ? splitPath(path) : undefined;
}

/** The literal child of `at` for `segment`, created when missing. */
function literalChild<T, H extends object>(at: TrieNode<T, H>, segment: string): TrieNode<T, H> {
  if (at.literal) {
    let next = at.literal.get(segment);
    if (!next) {
      next = node();
      at.literal.set(segment, next);
    }
    return next;
  }
  if (at.only === undefined) {
    at.onlyKey = segment;
    at.only = node();
    return at.only;
  }
  if (at.onlyKey === segment) return at.only;
  at.literal = new Map([[at.onlyKey as string, at.only]]);
  at.onlyKey = undefined;
  at.only = undefined;
  const next = node<T, H>();
  at.literal.set(segment, next);
  return next;
}

/** Insertion sort: candidate lists are short (a handful), so this beats Array.prototype.sort. */
function sortByRank<T, H extends object>(a: IndexedTarget<T, H>[]): void {
  for (let i = 1; i < a.length; i++) {
    const x = a[i]!;
    let j = i - 1;
    while (j >= 0 && a[j]!.rank > x.rank) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = x;
  }
}

/**
 * Whether a target's method admits the request's: `ANY` every method, `GET` also HEAD (the GET route
 * answers HEAD, so a GET policy must cover it), any other only itself.
 */
function admits(targetMethod: string, method: string): boolean {
  return targetMethod === method || targetMethod === "ANY" || (targetMethod === "GET" && method === "HEAD");
}
