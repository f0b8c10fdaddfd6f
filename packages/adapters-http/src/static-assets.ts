import { createHash } from "node:crypto";
import { readFile, realpath, stat } from "node:fs/promises";
import { extname, isAbsolute, join, resolve, sep } from "node:path";
import { PlatformError } from "@keyward/core/errors";
import type { HttpExchange } from "@keyward/core/web";
import { routeParams } from "./exchange-attributes.js";
import type { RouteDefinition } from "./route-registry.js";
import { cacheControlFor } from "./static-asset-cache.js";

/** A directory served under a URL prefix, e.g. `{ prefix: "/js", directory: "/abs/path/dist" }`. */
export interface StaticAssetsOptions {
  /** URL prefix, starting with `/` (a trailing slash is ignored). */
  prefix: string;
  /** Absolute directory; nothing outside it (after resolving symlinks) is ever read. */
  directory: string;
}

/** The only extensions served, with their content types; any other file answers 404. */
export const STATIC_CONTENT_TYPES: Readonly<Record<string, string>> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  html: "text/html; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  json: "application/json; charset=utf-8",
  woff2: "font/woff2",
  txt: "text/plain; charset=utf-8",
};

/**
 * The route (`GET <prefix>/**`, HEAD included) that serves a directory: a strong ETag (sha-256 of
 * the bytes, base64url, quoted), `Cache-Control: no-cache` so browsers revalidate, and 304 on a
 * matching If-None-Match. A content-hashed name (`app.<first 12 hex of the sha-256>.js`) whose hash
 * matches its bytes is served `public, max-age=31536000, immutable` instead. Dot segments, hidden files, encoded separators, backslashes, NUL and
 * anything resolving outside the directory answer 404 without touching the file system outside it.
 */
export function staticAssetsRoute(options: StaticAssetsOptions): RouteDefinition {
  const prefix = options.prefix.replace(/\/+$/, "");
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(prefix)) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `Static prefix ${JSON.stringify(options.prefix)} is invalid`,
    );
  }
  if (!isAbsolute(options.directory)) {
    throw new PlatformError(
      "CONFIGURATION_INVALID",
      `Static directory ${options.directory} must be absolute`,
    );
  }
  const root = resolve(options.directory);
  return {
    method: "GET",
    path: `${prefix}/**`,
    description: `Static assets from ${root}`,
    meta: { kind: "static-assets", directory: root },
    callerContext: false,
    handler: async (exchange) => {
      const asset = await loadAsset(root, routeParams(exchange)["**"] ?? "");
      if (!asset) throw new PlatformError("NOT_FOUND", "Not found");
      sendAsset(exchange, asset);
    },
  };
}

/** One file to send: its name (for the cache rule), bytes and content type. */
export interface Asset {
  name: string;
  content: Uint8Array;
  contentType: string;
}

/**
 * Answers a file: a strong ETag, `Cache-Control` by {@link cacheControlFor}, `nosniff`, and 304 on a
 * matching If-None-Match.
 */
export function sendAsset(exchange: HttpExchange, asset: Asset): void {
  const digest = createHash("sha256").update(asset.content).digest();
  const etag = `"${digest.toString("base64url")}"`;
  const res = exchange.response;
  res.headers.set("etag", etag);
  res.headers.set("cache-control", cacheControlFor(asset.name, digest.toString("hex")));
  res.headers.set("x-content-type-options", "nosniff");
  if (etagMatches(exchange.header("if-none-match"), etag)) {
    res.status = 304;
    res.body = undefined;
  } else {
    res.status = 200;
    res.headers.set("content-type", asset.contentType);
    res.headers.set("content-length", String(asset.content.byteLength));
    res.body = asset.content;
  }
  res.committed = true;
}

/** Weak comparison, as RFC 9110 asks for If-None-Match: `W/` is ignored, `*` matches any. */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || tag.replace(/^W\//, "") === etag;
  });
}

async function loadAsset(root: string, rest: string): Promise<Asset | undefined> {
  const segments = safeSegments(rest);
  if (!segments) return undefined;
  const name = segments[segments.length - 1]!;
  const contentType = STATIC_CONTENT_TYPES[extname(name).slice(1).toLowerCase()];
  if (!contentType) return undefined;
  const candidate = join(root, ...segments);
  if (!isInside(root, candidate)) return undefined;
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(candidate)]);
    if (!isInside(realRoot, realFile)) return undefined;
    if (!(await stat(realFile)).isFile()) return undefined;
    return { name, content: await readFile(realFile), contentType };
  } catch {
    return undefined;
  }
}

function isInside(directory: string, file: string): boolean {
  return file.startsWith(directory.endsWith(sep) ? directory : directory + sep);
}

/** Decodes the path below the prefix into file-name segments, or undefined when any is unsafe. */
function safeSegments(rest: string): string[] | undefined {
  if (rest === "") return undefined;
  const out: string[] = [];
  for (const raw of rest.split("/")) {
    let name: string;
    try {
      name = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    // Empty, dot segments and hidden files, separators smuggled in encoded, NUL, drive letters.
    if (name === "" || name.startsWith(".") || /[/\\\0:]/.test(name) || raw.includes("\\")) return undefined;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
    if (/[\u0000-\u001f\u007f]/.test(name)) return undefined;
    out.push(name);
  }
  return out;
}
