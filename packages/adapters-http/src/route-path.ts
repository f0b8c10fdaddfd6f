import { PlatformError } from "@platform/core";
import { canonicalPath } from "@platform/core/web";

/** One compiled segment of a route path: literal text, a `:name` parameter, or the `**` tail. */
type Segment = { kind: "literal"; text: string } | { kind: "param"; name: string } | { kind: "rest" };

/** A route path pattern: `/users`, `/users/:id`, `/js/**` (`**` only last, matching zero or more segments). */
export class RoutePath {
  readonly pattern: string;
  /** The pattern with parameter names erased (`/users/:`), so `/a/:id` and `/a/:name` count as the same. */
  readonly shape: string;
  private readonly segments: readonly Segment[];

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
    this.shape = `/${this.segments.map((s) => (s.kind === "literal" ? s.text : s.kind === "param" ? ":" : "**")).join("/")}`;
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

  /** `match` on a path already split by `splitPath` (a registry splits the request path once for every route). */
  matchParts(parts: readonly string[]): Record<string, string> | undefined {
    const segments = this.segments;
    const rest = segments.length > 0 && segments[segments.length - 1]!.kind === "rest";
    // Most routes fail on the segment count or a literal: decided before anything is allocated.
    if (rest ? parts.length < segments.length - 1 : parts.length !== segments.length) return undefined;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      if (segment.kind === "literal" && parts[i] !== segment.text) return undefined;
    }
    const params: Record<string, string> = {};
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      if (segment.kind === "rest") params["**"] = parts.slice(i).join("/");
      else if (segment.kind === "param") {
        const value = decodeSegment(parts[i]!);
        if (value === undefined || value === "") return undefined;
        params[segment.name] = value;
      }
    }
    return params;
  }

  /** Ranks per segment (0 literal, 1 parameter, 2 tail): lower sorts first, so `/a/b` beats `/a/:x` beats `/a/**`. */
  specificity(): readonly number[] {
    return this.segments.map((s) => (s.kind === "literal" ? 0 : s.kind === "param" ? 1 : 2));
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
