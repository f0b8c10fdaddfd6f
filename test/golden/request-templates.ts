import type { RawAnswer, RawRequest } from "./golden-client.js";
import type { Capture, GoldenRequest } from "./golden-types.js";
import type { Normaliser } from "./normalise-answer.js";

/** Replaces `{{var}}` (and `{{!var}}`: a wrong code of the same length) in every string of the request. */
export function resolveRequest(
  req: GoldenRequest,
  vars: Map<string, string>,
  actor: string,
  madeWrong: (code: string) => void,
): GoldenRequest {
  const fill = (s: string): string =>
    s.replace(/\{\{(!?)([\w.-]+)\}\}/g, (_, wrong: string, name: string) => {
      const value = vars.get(name);
      if (value === undefined)
        throw new Error(`no variable {{${name}}} (known: ${[...vars.keys()].join(", ")})`);
      if (!wrong) return value;
      const made = wrongCode(value);
      madeWrong(made);
      return made;
    });
  const deep = (v: unknown): unknown => {
    if (typeof v === "string") return fill(v);
    if (Array.isArray(v)) return v.map(deep);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x)]));
    return v;
  };
  const headers = Object.fromEntries(Object.entries(req.headers ?? {}).map(([k, v]) => [k, fill(v)]));
  if (req.bearer) headers.authorization = `Bearer ${fill(`{{${actor}.access}}`)}`;
  return {
    ...req,
    path: fill(req.path),
    headers,
    ...(req.json === undefined ? {} : { json: deep(req.json) }),
    ...(req.form === undefined ? {} : { form: deep(req.form) as Record<string, string> }),
    ...(req.text === undefined ? {} : { text: fill(req.text) }),
  };
}

/** The bytes a request step sends: its body encoded, with the content type its kind implies. */
export function toRaw(req: GoldenRequest): RawRequest {
  const headers = { ...req.headers };
  const withType = (type: string) => {
    if (!Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) headers["content-type"] = type;
  };
  let body: Buffer | undefined;
  if (req.json !== undefined) {
    withType("application/json");
    body = Buffer.from(JSON.stringify(req.json));
  } else if (req.form !== undefined) {
    withType("application/x-www-form-urlencoded");
    body = Buffer.from(new URLSearchParams(req.form).toString());
  } else if (req.text !== undefined) {
    withType("application/json");
    body = Buffer.from(req.text);
  } else if (req.bytes !== undefined) {
    withType("application/json");
    body = Buffer.alloc(req.bytes, "x");
  }
  return { method: req.method, path: req.path, headers, ...(body ? { body } : {}) };
}

/** The record of a request: its strings normalised like the answers, an oversized body as its size. */
export function renderRequest(norm: Normaliser, req: GoldenRequest): Record<string, unknown> {
  const out: Record<string, unknown> = { method: req.method, path: norm.text(req.path) };
  if (req.headers && Object.keys(req.headers).length > 0) {
    out.headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, norm.text(v)]));
  }
  if (req.json !== undefined) out.json = norm.json(req.json);
  if (req.form !== undefined) out.form = norm.json(req.form);
  if (req.text !== undefined) out.text = norm.text(req.text);
  if (req.bytes !== undefined) out.bytes = req.bytes;
  return out;
}

/** The value `capture` names in an answer; throws (naming `what`) when there is none. */
export function captured(answer: RawAnswer, capture: Capture, what: string): string {
  let value: unknown;
  if (capture === "html:csrf") {
    value = /name="_csrf"\s+(?:content|value)="([^"]+)"/.exec(answer.body.toString("utf8"))?.[1];
  } else if (capture.startsWith("header:")) {
    value = answer.headers[capture.slice("header:".length)];
  } else {
    value = capture
      .slice("json:".length)
      .split("/")
      .reduce<unknown>(
        (v, k) => (v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined),
        JSON.parse(answer.body.toString("utf8") || "null"),
      );
  }
  if (typeof value !== "string" && typeof value !== "number") {
    const body = answer.body.toString("utf8").slice(0, 300);
    throw new Error(`${what}: nothing at ${capture} (status ${answer.status}: ${body})`);
  }
  return String(value);
}

/** A code of the same length that is certainly not `code` (each digit + 1). */
function wrongCode(code: string): string {
  return code.replace(/\d/g, (d) => String((Number(d) + 1) % 10));
}

/** Milliseconds of an ISO-8601 duration of days, hours, minutes and seconds (`P1D`, `PT6M`). */
export function durationMs(iso: string): number {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(iso);
  if (!m) throw new Error(`not an ISO-8601 duration: ${iso}`);
  const [, d = "0", h = "0", min = "0", s = "0"] = m;
  return ((Number(d) * 24 + Number(h)) * 60 + Number(min)) * 60_000 + Number(s) * 1000;
}
