/** The header the server reads the token from when the page does not name one. */
export const DEFAULT_CSRF_HEADER = "X-CSRF-TOKEN";
/** The form field of the token. */
export const CSRF_PARAMETER = "_csrf";

/** The page's CSRF token and the header to send it in. */
export interface CsrfToken {
  headerName: string;
  token: string;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The CSRF token of the page: `<meta name="_csrf" content="…">`, sent in the header named by
 * `<meta name="_csrf_header" content="…">` (default `X-CSRF-TOKEN`). Read at every request, so a page
 * that swaps its meta tags (after a sign-in rotated the token) is followed. Undefined without a token.
 */
export function csrfToken(doc: Document | undefined = globalThis.document): CsrfToken | undefined {
  const token = metaContent(doc, "_csrf");
  if (!token) return undefined;
  const named = metaContent(doc, "_csrf_header");
  return { headerName: named && HEADER_NAME.test(named) ? named : DEFAULT_CSRF_HEADER, token };
}

function metaContent(doc: Document | undefined, name: string): string | undefined {
  const value = doc?.querySelector(`meta[name="${name}"]`)?.getAttribute("content");
  return value ? value : undefined;
}
