import { expect } from "vitest";

/** A hostile value: breaks out of attributes and text if anything is left unescaped. */
export const HOSTILE = `"'><script>alert(1)</script>&`;

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Decodes the entities escapeHtml produces. */
export function decode(text: string): string {
  return text.replace(/&(#\d+|[a-z]+);/g, (all, e: string) =>
    e.startsWith("#") ? String.fromCharCode(Number(e.slice(1))) : (NAMED[e] ?? all),
  );
}

/** The attributes of one start tag (`<x a="1" b>`), decoded; a bare attribute is "". */
export function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  const body = tag.replace(/^<[a-z]+/i, "").replace(/\/?>$/, "");
  for (const match of body.matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:="([^"]*)")?/g)) {
    const [, name, value] = match;
    if (name !== undefined) out[name] = decode(value ?? "");
  }
  return out;
}

/** Every start tag of one element name, as attribute maps. */
export function tags(html: string, name: string): Record<string, string>[] {
  return [...html.matchAll(new RegExp(`<${name}(?:\\s[^>]*)?>`, "gi"))].map((m) => attributes(m[0]));
}

/** A form with its attributes and the attribute maps of its inputs and buttons. */
export interface ParsedForm {
  attrs: Record<string, string>;
  inputs: Record<string, string>[];
  buttons: Record<string, string>[];
}

/** Every form of the page. */
export function forms(html: string): ParsedForm[] {
  return [...html.matchAll(/(<form\s[^>]*>)([\s\S]*?)<\/form>/g)].map((m) => ({
    attrs: attributes(m[1] ?? ""),
    inputs: tags(m[2] ?? "", "input"),
    buttons: tags(m[2] ?? "", "button"),
  }));
}

/** The form with this id (fails the test when missing). */
export function form(html: string, id: string): ParsedForm {
  const found = forms(html).find((f) => f.attrs.id === id);
  expect(found, `form#${id}`).toBeDefined();
  return found as ParsedForm;
}

/** The `data-*` attributes of `div#platform-page-config`, keyed without `data-`. */
export function pageConfig(html: string): Record<string, string> {
  const divs = tags(html, "div").filter((a) => a.id === "platform-page-config");
  expect(divs).toHaveLength(1);
  const div = divs[0] ?? {};
  expect(div.hidden).toBe("");
  return Object.fromEntries(
    Object.entries(div)
      .filter(([k]) => k.startsWith("data-"))
      .map(([k, v]) => [k.slice(5), v]),
  );
}

/** The content of `<meta name=…>`, or undefined. */
export function meta(html: string, name: string): string | undefined {
  return tags(html, "meta").find((a) => a.name === name)?.content;
}

/**
 * Checks what every MFA page must have: CSRF meta tags, one config div, only deferred external
 * scripts (the SDK first, then the page script), no inline script or handler, and the hidden-inputs
 * block in every POST form.
 */
export function expectMfaPageContract(
  html: string,
  expected: { csrfToken: string; mfaSessionId?: string; pageScript?: string },
): void {
  expect(meta(html, "_csrf")).toBe(expected.csrfToken);
  expect(meta(html, "_csrf_header")).toBe("X-CSRF-TOKEN");
  pageConfig(html);
  const scripts = tags(html, "script");
  expect(scripts.map((s) => s.src)).toEqual([
    "/js/platform-mfa-sdk.js",
    ...(expected.pageScript === undefined ? [] : [expected.pageScript]),
  ]);
  for (const s of scripts) expect(s.defer).toBe("");
  expect(html.match(/<script/g)?.length ?? 0).toBe(scripts.length);
  expect(html).not.toMatch(/<script[^>]*>[^<]/);
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/javascript:/i);
  for (const f of forms(html)) {
    expect(f.attrs.method, f.attrs.id).toBe("post");
    expect(f.attrs.action, f.attrs.id).toMatch(/^\//);
    const hidden = Object.fromEntries(
      f.inputs.filter((i) => i.type === "hidden").map((i) => [i.name ?? "", i.value ?? ""]),
    );
    expect(hidden._csrf, f.attrs.id).toBe(expected.csrfToken);
    if (expected.mfaSessionId !== undefined)
      expect(hidden.mfaSessionId, f.attrs.id).toBe(expected.mfaSessionId);
  }
}

/** Checks a page rendered from hostile values: no markup escaped its attribute or text. */
export function expectNoInjection(html: string): void {
  expect(html).not.toContain("<script>alert");
  expect(html).not.toContain(`"'>`);
  expect(tags(html, "script").every((s) => s.src?.startsWith("/js/"))).toBe(true);
}
