import { escapeHtml } from "../web/html-escape.js";

/** Escapes one value for HTML text or a quoted attribute. */
export const h = escapeHtml;

/** `<option>`s for each value (the first an empty "any"), the current one selected. */
export function options(values: readonly string[], current: string | undefined, anyLabel = "any"): string {
  const any = `<option value=""${current === undefined ? " selected" : ""}>${h(anyLabel)}</option>`;
  return (
    any +
    values.map((v) => `<option value="${h(v)}"${v === current ? " selected" : ""}>${h(v)}</option>`).join("")
  );
}

/**
 * A form that posts to `action` with the CSRF field, the hidden fields and a submit button; `fields`
 * is extra markup the caller escaped.
 */
export function postForm(o: {
  action: string;
  csrfInput: string;
  hidden?: Readonly<Record<string, string | number>>;
  fields?: string;
  button: string;
  className?: string;
}): string {
  const hidden = Object.entries(o.hidden ?? {})
    .map(([name, value]) => `<input type="hidden" name="${h(name)}" value="${h(String(value))}">`)
    .join("");
  const cls = o.className ? ` class="${h(o.className)}"` : "";
  return `<form method="post" action="${h(o.action)}"${cls}>${o.csrfInput}${hidden}${o.fields ?? ""}<button type="submit">${h(o.button)}</button></form>`;
}

/** The tab bar: each tab a link, the current one marked. */
export function tabBar(
  tabs: readonly { id: string; label: string; href: string }[],
  current: string,
): string {
  const items = tabs
    .map((t) => {
      const mark = t.id === current ? ' aria-current="page"' : "";
      return `<li><a href="${h(t.href)}"${mark}>${h(t.label)}</a></li>`;
    })
    .join("");
  return `<nav class="tabs" aria-label="Policy Center"><ul>${items}</ul></nav>`;
}
