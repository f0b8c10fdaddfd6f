import type { ErrorCatalog } from "@keyward/core/errors";
import type { Route, RouteContract } from "@keyward/core/web";

/** The methods that change state: a chain that checks CSRF refuses them without the token. */
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE", "ANY"]);

/** What the chain's rules, policies and zero trust can answer on a guarded route. */
const GUARDED = [
  "ACCESS_DENIED",
  "MFA_CHALLENGE_REQUIRED",
  "ZERO_TRUST_BLOCKED",
  "ZERO_TRUST_REVIEW_REQUIRED",
  "ZERO_TRUST_PENDING_ANALYSIS",
];

/** What every error answer's JSON is (`web/wire/error-body.ts`): a stable code, a safe message. */
export const ERROR_BODY_SCHEMA = {
  type: "object",
  required: ["code", "message"],
  properties: {
    code: { type: "string", pattern: "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$" },
    message: { type: "string" },
    correlationId: { type: "string", description: "Also in the X-Correlation-Id header and the log line" },
  },
  additionalProperties: true,
} as const;

/**
 * The error codes a route can answer: its contract's own, and those its facts bring (documented
 * decision `openapi-error-answers` in docs/decisions/http.md):
 * - access `authenticated`, `admin`, `chain-rules`: AUTHENTICATION_REQUIRED; `admin` and
 *   `chain-rules` also what rules, policies and zero trust answer (ACCESS_DENIED,
 *   MFA_CHALLENGE_REQUIRED, ZERO_TRUST_*); `mfa-flow`: MFA_SESSION_REQUIRED;
 * - a state-changing method: CSRF_TOKEN_INVALID (when the chain that serves it checks CSRF);
 * - a chain's route or a `chain-rules` route: INVALID_TOKEN, TOKEN_EXPIRED (a bad bearer token);
 * - a body: MALFORMED_JSON, MALFORMED_BODY, UNSUPPORTED_MEDIA_TYPE, PAYLOAD_TOO_LARGE;
 * - every route: INTERNAL_ERROR (anything unexpected).
 * Codes this platform's catalog does not hold are left out (its tables are the truth).
 */
export function errorCodesOf(
  route: Route,
  contract: RouteContract | undefined,
  catalog: ErrorCatalog,
): string[] {
  const codes = new Set<string>(contract?.errors ?? []);
  if (route.access !== "public" && route.access !== "reset-link" && route.access !== "mfa-flow") {
    codes.add("AUTHENTICATION_REQUIRED");
  }
  if (route.access === "admin" || route.access === "chain-rules") {
    // The chain's rules and policies: refusal, a second factor (step-up or a policy's CHALLENGE), zero trust.
    for (const code of GUARDED) codes.add(code);
  }
  if (route.access === "mfa-flow") codes.add("MFA_SESSION_REQUIRED");
  // A session chain checks CSRF on every state-changing request, application routes' included.
  if (UNSAFE.has(route.method)) codes.add("CSRF_TOKEN_INVALID");
  // A bearer token that is presented and bad is refused wherever a chain reads tokens.
  if (route.chain !== undefined || route.access === "chain-rules") {
    codes.add("INVALID_TOKEN");
    codes.add("TOKEN_EXPIRED");
  }
  if (contract?.body) {
    for (const code of ["MALFORMED_JSON", "MALFORMED_BODY", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE"]) {
      codes.add(code);
    }
  }
  codes.add("INTERNAL_ERROR");
  return [...codes].filter((code) => catalog.entry(code) !== undefined);
}

/** Where the document keeps the error body's schema. */
export const ERROR_BODY_REF = "#/components/schemas/ErrorBody";

/**
 * The codes the document names, each with its status, meaning and remedy from the error tables (the
 * document's `x-keyward-error-codes`; responses name codes only, so each meaning is written once).
 */
export function errorCodeTable(
  codes: Iterable<string>,
  catalog: ErrorCatalog,
): Record<string, { status: number; meaning: string; remedy: string }> {
  const table: Record<string, { status: number; meaning: string; remedy: string }> = {};
  for (const code of [...new Set(codes)].sort()) {
    const entry = catalog.entry(code);
    // A 5xx other than 503 is answered as INTERNAL_ERROR: its own code never reaches a client.
    if (entry && entry.status >= 500 && entry.status !== 503 && code !== "INTERNAL_ERROR") continue;
    if (entry) table[code] = { status: entry.status, meaning: entry.meaning, remedy: entry.remedy };
  }
  return table;
}

/** An OpenAPI response object. */
export type ResponseObject = { description: string; [key: string]: unknown };

/**
 * The error responses of a route by status, from the error tables: one response per status, its
 * body the error body with `code` one of the codes answering that status. A 5xx other than 503 hides
 * its code behind INTERNAL_ERROR (docs/errors.md), so it documents that code alone.
 */
export function errorResponses(
  codes: readonly string[],
  catalog: ErrorCatalog,
  routeErrorSchema?: Record<string, unknown>,
): Map<number, ResponseObject> {
  const byStatus = new Map<number, Set<string>>();
  for (const code of codes) {
    const status = catalog.statusOf(code);
    const shown = status >= 500 && status !== 503 ? "INTERNAL_ERROR" : code;
    const set = byStatus.get(status) ?? new Set<string>();
    set.add(shown);
    byStatus.set(status, set);
  }
  const out = new Map<number, ResponseObject>();
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const shown = [...byStatus.get(status)!].sort();
    // The body is the shared ErrorBody (components) narrowed to this status's codes.
    const errorBody = { $ref: ERROR_BODY_REF, properties: { code: { enum: shown } } };
    // A route with answers of its own shape (sign-in steps) may still answer the error body (a filter's).
    const schema = routeErrorSchema ? { anyOf: [routeErrorSchema, errorBody] } : errorBody;
    out.set(status, {
      description: `Error ${shown.map((code) => `\`${code}\``).join(", ")} (meaning and remedy: \`x-keyward-error-codes\`)`,
      content: { "application/json": { schema } },
    });
  }
  return out;
}
