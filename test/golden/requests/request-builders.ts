import type { GoldenRequest, RequestStep } from "../golden-types.js";

/** A request step named `name`. */
export function step(
  name: string,
  request: GoldenRequest,
  extra: Omit<RequestStep, "name" | "request"> = {},
): RequestStep {
  return { name, request, ...extra };
}

/** `GET path` with `Accept: application/json` (what an API client sends). */
export function getJson(path: string, more: Partial<GoldenRequest> = {}): GoldenRequest {
  return { method: "GET", path, ...more, headers: { accept: "application/json", ...more.headers } };
}

/** `GET path` as a browser asks for a page (`Accept: text/html`). */
export function getPage(path: string, more: Partial<GoldenRequest> = {}): GoldenRequest {
  return { method: "GET", path, ...more, headers: { accept: "text/html", ...more.headers } };
}

/** A JSON request (`Accept` and body JSON). */
export function sendJson(
  method: string,
  path: string,
  json: unknown,
  more: Partial<GoldenRequest> = {},
): GoldenRequest {
  return { method, path, json, ...more, headers: { accept: "application/json", ...more.headers } };
}

/** A browser form post (urlencoded, `Accept: text/html`). */
export function postForm(
  path: string,
  form: Record<string, string>,
  more: Partial<GoldenRequest> = {},
): GoldenRequest {
  return { method: "POST", path, form, ...more, headers: { accept: "text/html", ...more.headers } };
}

/** The CSRF header of a session actor (`{{actor.csrf}}`). */
export function csrf(actor: string): Record<string, string> {
  return { "x-csrf-token": `{{${actor}.csrf}}` };
}

/**
 * The hostile spellings of a path every endpoint is asked with: a trailing slash, an encoded
 * slash in place of the last `/`, a doubled slash, and dot segments (`/./`, `/x/../`).
 */
export function hostilePaths(path: string): Array<[label: string, path: string]> {
  const cut = path.lastIndexOf("/");
  const head = path.slice(0, cut);
  const last = path.slice(cut + 1);
  const first = path.slice(1).split("/")[0]!;
  const afterFirst = path.slice(1 + first.length);
  const variants: Array<[string, string]> = [["trailing slash", `${path}/`]];
  if (cut > 0) variants.push(["encoded slash", `${head}%2F${last}`]);
  variants.push(
    ["double slash", cut > 0 ? `${head}//${last}` : `/${path}`],
    ["dot segment", `${head}/./${last}`],
    ["dot-dot segment", cut > 0 ? `/${first}/x/..${afterFirst}` : `/x/..${path}`],
  );
  return variants;
}

/** `request` asked at each hostile spelling of its path, as steps named `<name>, <variant>`. */
export function hostileSteps(name: string, request: GoldenRequest, actor?: string): RequestStep[] {
  return hostilePaths(request.path).map(([label, path]) => ({
    name: `${name}, ${label}`,
    request: { ...request, path },
    ...(actor ? { actor } : {}),
  }));
}

/** One megabyte and one byte: just over the default `platform.http.max-body-size`. */
export const OVERSIZED = 1_048_577;

/**
 * The bad-body cases of a JSON endpoint: no body, an empty object, malformed JSON, a body over the
 * size limit, and a content type the endpoint does not read. `more` carries the caller's headers.
 */
export function badJsonBodies(
  name: string,
  method: string,
  path: string,
  more: Partial<GoldenRequest> = {},
  actor?: string,
): RequestStep[] {
  const base = { method, path, ...more, headers: { accept: "application/json", ...more.headers } };
  const cases: Array<[string, GoldenRequest]> = [
    ["no body", { ...base, headers: { ...base.headers, "content-type": "application/json" } }],
    ["empty JSON object", { ...base, json: {} }],
    ["malformed JSON", { ...base, text: '{"username":' }],
    ["oversized body", { ...base, bytes: OVERSIZED }],
    [
      "text/plain body",
      { ...base, text: "hello", headers: { ...base.headers, "content-type": "text/plain" } },
    ],
  ];
  return cases.map(([label, request]) => ({
    name: `${name}, ${label}`,
    request,
    ...(actor ? { actor } : {}),
  }));
}
