import { PlatformError } from "../kernel/platform-error.js";
import { canonicalPath } from "./canonical-path.js";

/**
 * One compiled segment of a route path: literal text, a `:name` parameter (decoded), a `*` segment
 * (one non-empty segment as sent, not decoded), or the `**` tail.
 */
type Segment =
  | { kind: "literal"; text: string }
  | { kind: "param"; name: string }
  | { kind: "raw" }
  | { kind: "rest" };

/**
 * A route path pattern: `/users`, `/users/:id`, `/keys/*`, `/js/**` (`**` only last, matching zero
 * or more segments; `*` at most once, handed over as `params["*"]` without decoding, for handlers
 * that judge the segment as sent).
 */
export class RoutePath {
  readonly pattern: string;
  /** The pattern with parameter names erased (`/users/:`), so `/a/:id` and `/a/:name` count as the same. */
  readonly shape: string;
  private readonly segments: readonly Segment[];
  private readonly ranks: readonly number[];
  /** The segment count a match needs; undefined with a `**` tail (any count from its position). */
  private readonly fixedLength: number | undefined;

  constructor(pattern: string) {
    if (!pattern.startsWith("/")) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `Route path ${JSON.stringify(pattern)} must start with /`,
      );
    }
    // Compiled in canonical path form (`/a/` is `/a`, `/%61` is `/a`), like Ant patterns.
    const parts = splitPath(canonicalPath(pattern));
    this.segments = parts.map((part, i) => compileSegment(pattern, part, i === parts.length - 1));
    this.pattern = pattern;
    if (this.segments.filter((s) => s.kind === "raw").length > 1) {
      throw new PlatformError("CONFIGURATION_INVALID", `Route path ${pattern}: * may appear once`);
    }
    this.ranks = this.segments.map((s) => (s.kind === "literal" ? 0 : s.kind === "rest" ? 2 : 1));
    this.fixedLength = this.segments.some((s) => s.kind === "rest") ? undefined : this.segments.length;
    this.shape = `/${this.segments.map((s) => (s.kind === "literal" ? s.text : s.kind === "rest" ? "**" : ":")).join("/")}`;
  }

  /**
   * Matches a canonical request path (HttpExchange.path) exactly: no leniency of its own, so the
   * route served and the path the policies judged are one string. Returns the decoded parameters
   * (and `**` as the raw remaining path) or undefined. A parameter whose escapes do not decode does
   * not match.
   */
  match(path: string): Record<string, string> | undefined {
    return this.matchParts(splitPath(path));
  }

  /** As `match`, on a path already split into its segments (`splitPath`): the table splits once per lookup. */
  matchParts(parts: readonly string[]): Record<string, string> | undefined {
    if (this.fixedLength !== undefined && parts.length !== this.fixedLength) return undefined;
    // Literal segments first: most candidates fail there, before anything is decoded or allocated.
    for (let i = 0; i < this.segments.length; i++) {
      const segment = this.segments[i]!;
      if (segment.kind === "rest") break;
      if (segment.kind === "literal" && parts[i] !== segment.text) return undefined;
    }
    const params: Record<string, string> = {};
    for (let i = 0; i < this.segments.length; i++) {
      const segment = this.segments[i]!;
      if (segment.kind === "rest") {
        params["**"] = parts.slice(i).join("/");
        return params;
      }
      const part = parts[i];
      if (part === undefined) return undefined;
      if (segment.kind === "raw") {
        if (part === "") return undefined;
        params["*"] = part;
      } else if (segment.kind === "param") {
        const value = decodeSegment(part);
        if (value === undefined || value === "") return undefined;
        params[segment.name] = value;
      }
    }
    return parts.length === this.segments.length ? params : undefined;
  }

  /** True when the pattern has no parameter and no tail: it matches one path, its `shape`. */
  get literal(): boolean {
    return this.segments.every((s) => s.kind === "literal");
  }

  /** The first segment's text when it is literal (`api` of `/api/:x`), else undefined: the table's index key. */
  get firstLiteral(): string | undefined {
    const first = this.segments[0];
    return first?.kind === "literal" ? first.text : undefined;
  }

  /** Ranks per segment (0 literal, 1 parameter or `*`, 2 tail): lower sorts first, so `/a/b` beats `/a/:x` beats `/a/**`. */
  specificity(): readonly number[] {
    return this.ranks;
  }
}

/** Compares two specificities: negative when `a` is more specific than `b`. */
export function compareSpecificity(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return b.length - a.length;
}

/** Splits a path into segments exactly (`/` has none; `/a/` has an empty last one, matching no route). */
export function splitPath(path: string): string[] {
  return path === "/" ? [] : path.slice(1).split("/");
}

function compileSegment(pattern: string, part: string, last: boolean): Segment {
  if (part === "**") {
    if (!last)
      throw new PlatformError("CONFIGURATION_INVALID", `Route path ${pattern}: ** must be the last segment`);
    return { kind: "rest" };
  }
  if (part === "*") return { kind: "raw" };
  if (part.startsWith(":")) {
    const name = part.slice(1);
    if (!/^[A-Za-z_][\w]*$/.test(name)) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `Route path ${pattern}: bad parameter ${JSON.stringify(part)}`,
      );
    }
    return { kind: "param", name };
  }
  if (part === "" || part.includes("*")) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `Route path ${pattern}: bad segment ${JSON.stringify(part)}`,
    );
  }
  return { kind: "literal", text: part };
}

function decodeSegment(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
