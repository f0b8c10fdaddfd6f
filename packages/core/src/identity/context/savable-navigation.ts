import { canonicalPath } from "../../web/canonical-path.js";
import type { HttpExchange } from "../../web/http-exchange.js";

/** Extensions of files a browser fetches for a page (icons, images, scripts, styles, fonts, media, data). */
export const STATIC_ASSET_EXTENSIONS: readonly string[] = Object.freeze([
  "ico",
  "png",
  "jpg",
  "jpeg",
  "gif",
  "svg",
  "webp",
  "avif",
  "bmp",
  "tif",
  "tiff",
  "css",
  "js",
  "mjs",
  "cjs",
  "map",
  "json",
  "webmanifest",
  "txt",
  "xml",
  "woff",
  "woff2",
  "ttf",
  "otf",
  "eot",
  "wasm",
  "mp3",
  "mp4",
  "webm",
  "ogg",
  "wav",
  "pdf",
  "zip",
  "gz",
]);

/** Path prefixes of assets and well-known resources (the page scripts are under `/js`). */
const ASSET_PREFIXES = ["/js/", "/css/", "/images/", "/img/", "/.well-known/"];
const EXTENSIONS = new Set(STATIC_ASSET_EXTENSIONS);

/**
 * True when `exchange` is a top-level HTML page navigation whose URL is worth returning to after the
 * login page: a GET whose `Accept` names `text/html` (with a q above 0), whose `Sec-Fetch-Mode` and
 * `Sec-Fetch-Dest`, when sent, are `navigate` and `document`, and whose path (`url`'s, else the
 * exchange's) is no static asset: no favicon, nothing under `/js`, `/css`, `/images`, `/img` or
 * `/.well-known`, no asset extension. A browser's `/favicon.ico` was saved and a new user landed on
 * a 404. The headers are the client's own words, so they only ever narrow what is saved: every rule
 * must hold, and the saved URL is still only a same-origin local path (`isLocalPath`).
 */
export function isSavableNavigation(exchange: HttpExchange, url: string = exchange.path): boolean {
  if (exchange.method !== "GET" || !acceptsHtml(exchange.header("accept"))) return false;
  const mode = exchange.header("sec-fetch-mode");
  const dest = exchange.header("sec-fetch-dest");
  if (mode !== undefined && mode.trim().toLowerCase() !== "navigate") return false;
  if (dest !== undefined && dest.trim().toLowerCase() !== "document") return false;
  return !isAssetPath(url);
}

/** True when an `Accept` header lists `text/html` without `q=0`. */
function acceptsHtml(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  return accept.split(",").some((range) => {
    const [type, ...params] = range.split(";").map((p) => p.trim().toLowerCase());
    if (type !== "text/html") return false;
    const q = params.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

function isAssetPath(url: string): boolean {
  // Canonical, as the matchers see it: `/%6As/x` is `/js/x`. Case is ignored: `/FAVICON.ICO` too.
  const path = canonicalPath(url.split(/[?#]/, 1)[0] ?? "").toLowerCase();
  if (ASSET_PREFIXES.some((prefix) => path.startsWith(prefix))) return true;
  const last = path.slice(path.lastIndexOf("/") + 1);
  if (last.startsWith("favicon")) return true;
  const dot = last.lastIndexOf(".");
  return dot > 0 && EXTENSIONS.has(last.slice(dot + 1));
}
