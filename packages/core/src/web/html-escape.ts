/**
 * Escapes text for HTML content and for quoted attribute values: `& < > " '` become numeric
 * character references, so text from users, scanners or a model renders as text, never markup.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
