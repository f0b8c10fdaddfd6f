import type { Platform } from "@platform/core";

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The demo's home page: what is running. */
export function homePage(platform: Platform): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Platform demo</title></head>
<body>
<h1>Platform demo</h1>
<p>State: ${escapeHtml(platform.state)}</p>
<p><a href="/health">Health</a></p>
</body></html>`;
}
