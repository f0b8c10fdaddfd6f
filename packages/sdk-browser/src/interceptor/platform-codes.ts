// The interceptor's decision table: which answers start a step-up, which are platform refusals no
// factor can clear, and which belong to the application. Exact status/code pairs only: an
// application's own 401/403/423 (another code, or no JSON body) is never touched.

/** What the interceptor does with an answer of the platform. */
export type PlatformCodeAction = "challenge" | "blocked";

/** One row of the table: a status, the platform code it carries, and what a factor can do about it. */
export interface PlatformCodeRule {
  readonly status: number;
  readonly code: string;
  /** `challenge`: a verified factor clears it (start the challenge, then retry); `blocked`: it cannot. */
  readonly action: PlatformCodeAction;
}

/**
 * The platform codes the interceptor acts on. Factor-clearable today: 401 `MFA_CHALLENGE_REQUIRED`
 * only; a future factor-clearable 403/423 code is one more `challenge` row. The others are refusals a
 * second factor cannot lift (blocked, under review, locked, still being analysed): an `mfa:blocked`
 * event and the configured redirect, never a retry.
 */
export const PLATFORM_CODE_RULES: readonly PlatformCodeRule[] = Object.freeze([
  { status: 401, code: "MFA_CHALLENGE_REQUIRED", action: "challenge" },
  { status: 403, code: "AUTHENTICATION_BLOCKED", action: "blocked" },
  { status: 403, code: "ZERO_TRUST_BLOCKED", action: "blocked" },
  { status: 423, code: "ZERO_TRUST_REVIEW_REQUIRED", action: "blocked" },
  { status: 423, code: "ACCOUNT_LOCKED", action: "blocked" },
  { status: 503, code: "ZERO_TRUST_PENDING_ANALYSIS", action: "blocked" },
]);

/** The statuses any rule names: only answers with one of these are read at all. */
export const PLATFORM_CODE_STATUSES: ReadonlySet<number> = new Set(PLATFORM_CODE_RULES.map((r) => r.status));

/** The verdict on one answer. */
export type AnswerVerdict =
  | { readonly action: "pass" }
  | { readonly action: PlatformCodeAction; readonly status: number; readonly code: string };

const PASS: AnswerVerdict = Object.freeze({ action: "pass" });

/**
 * Classifies an answer by its status and parsed JSON body (undefined when it was not JSON): a row of
 * {@link PLATFORM_CODE_RULES} whose status and `code` both match, else `pass` (the application's own).
 */
export function classifyAnswer(status: number, body: unknown): AnswerVerdict {
  if (!PLATFORM_CODE_STATUSES.has(status) || typeof body !== "object" || body === null) return PASS;
  const code = (body as { code?: unknown }).code;
  if (typeof code !== "string") return PASS;
  const rule = PLATFORM_CODE_RULES.find((r) => r.status === status && r.code === code);
  return rule ? { action: rule.action, status, code } : PASS;
}

/** True when a `Content-Type` names JSON (`application/json`, `application/problem+json`...). */
export function isJsonContentType(contentType: string | null | undefined): boolean {
  return /^[^;]*[/+]json\s*(;|$)/i.test(contentType ?? "");
}
