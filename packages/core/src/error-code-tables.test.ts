import { describe, expect, it } from "vitest";
import { authzPlugin } from "./authz/authz-plugin.js";
import { createDecisionsPlugin } from "./decisions/decisions-plugin.js";
import { ERROR_CODE_TABLES, ERROR_STATUS } from "./error-code-tables.js";
import { promptGovernancePlugin } from "./governance/governance-plugin.js";
import { identityPlugin } from "./identity/identity-plugin.js";
import { ErrorCatalog } from "./kernel/error-catalog.js";
import { createPlatform } from "./kernel/platform.js";
import { mfaPlugin } from "./mfa/mfa-plugin.js";

const entries = Object.entries(ERROR_CODE_TABLES).flatMap(([module, table]) =>
  Object.entries(table).map(([code, entry]) => ({ module, code, entry })),
);

describe("the built-in error code tables", () => {
  it("hold every code in exactly one module's table", () => {
    const modules = new Map<string, string[]>();
    for (const { module, code } of entries) modules.set(code, [...(modules.get(code) ?? []), module]);
    const repeated = [...modules].filter(([, owners]) => owners.length > 1);
    expect(repeated).toEqual([]);
  });

  it("give each code an UPPER_SNAKE name, a 4xx/5xx status, a meaning and a remedy", () => {
    for (const { code, entry } of entries) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(Number.isInteger(entry.status) && entry.status >= 400 && entry.status <= 599).toBe(true);
      expect(entry.meaning).toMatch(/^[A-Z`].*\.$/);
      expect(entry.remedy).toMatch(/^[A-Z`].*\.$/);
    }
  });

  it("are what the catalog of a platform with every core plugin answers, no more", () => {
    const platform = createPlatform({
      plugins: [identityPlugin, mfaPlugin, authzPlugin, createDecisionsPlugin(), promptGovernancePlugin],
      env: {},
    });
    const catalog = platform.resolve(ErrorCatalog);
    for (const { code, entry } of entries) {
      expect(catalog.statusOf(code)).toBe(entry.status);
      expect(catalog.entry(code)).toEqual(entry);
    }
    expect([...catalog.codes()].sort()).toEqual(entries.map((e) => e.code).sort());
    expect(catalog.statusOf("NO_SUCH_CODE")).toBe(500);
  });

  it("are known to a platform only through the plugins that contribute them", () => {
    const codesOf = (...modules: (keyof typeof ERROR_CODE_TABLES)[]) =>
      modules.flatMap((m) => Object.keys(ERROR_CODE_TABLES[m])).sort();
    const known = (plugins: Parameters<typeof createPlatform>[0]) =>
      [
        ...createPlatform({ ...plugins, env: {} })
          .resolve(ErrorCatalog)
          .codes(),
      ].sort();
    expect(known({})).toEqual(codesOf("kernel"));
    expect(known({ plugins: [identityPlugin] })).toEqual(codesOf("kernel", "web", "identity"));
    expect(known({ plugins: [identityPlugin, mfaPlugin] })).toEqual(
      codesOf("kernel", "web", "identity", "mfa"),
    );
  });

  it("flatten to ERROR_STATUS", () => {
    expect(ERROR_STATUS).toEqual(Object.fromEntries(entries.map(({ code, entry }) => [code, entry.status])));
  });

  // Clients and the browser SDK act on these pairs; a status changes only on purpose, here.
  it("keep every status clients already rely on", () => {
    expect(ERROR_STATUS).toEqual({
      ...{ VALIDATION_FAILED: 400, NOT_FOUND: 404, CONFLICT: 409, ILLEGAL_STATE_TRANSITION: 409 },
      ...{ CONFIGURATION_INVALID: 500, UNSUPPORTED_OPERATION: 500, PROPERTY_INVALID: 500 },
      ...{ DEPENDENCY_MISSING: 500, DEPENDENCY_UNAVAILABLE: 503, TIMEOUT: 504, INTERNAL_ERROR: 500 },
      ...{ BAD_REQUEST: 400, REQUEST_REJECTED: 400, MALFORMED_JSON: 400, MALFORMED_BODY: 400 },
      ...{ MISSING_PARAMETER: 400, UNSUPPORTED_MEDIA_TYPE: 415, PAYLOAD_TOO_LARGE: 413 },
      ...{ CLIENT_ABORTED: 400, METHOD_NOT_ALLOWED: 405 },
      ...{ AUTHENTICATION_REQUIRED: 401, BAD_CREDENTIALS: 401, INVALID_TOKEN: 401, TOKEN_EXPIRED: 401 },
      ...{ REFRESH_TOKEN_RACE_LOST: 401, ACCOUNT_LOCKED: 423, ACCOUNT_DISABLED: 401 },
      ...{ TOO_MANY_ATTEMPTS: 429, CSRF_TOKEN_INVALID: 403, ACCESS_DENIED: 403 },
      ...{ PASSWORD_RESET_TOKEN_INVALID: 400, WEBAUTHN_CHALLENGE_INVALID: 400 },
      ...{
        WEBAUTHN_VERIFICATION_FAILED: 401,
        WEBAUTHN_COUNTER_REGRESSION: 401,
        DELIVERY_FAILED: 503, // was 500 (masked as INTERNAL_ERROR); a dependency failure, issue 33
        LAST_ADMINISTRATOR: 409,
      },
      ...{ MFA_CHALLENGE_REQUIRED: 401, MFA_SESSION_EXPIRED: 401, MFA_TIMEOUT: 401 },
      ...{ MFA_SESSION_BINDING_INVALID: 403, MFA_FACTOR_VERIFICATION_FAILED: 401 },
      ...{ MFA_SESSION_REQUIRED: 401, MFA_SIGN_IN_ENDED: 401, AUTHENTICATION_BLOCKED: 403 },
      EMAIL_CHANGE_LINK_INVALID: 400, // issue 34, the user's own e-mail address
      SESSION_IS_CURRENT: 409, // issue 34, ending sessions from the account
      ...{ POLICY_EXPRESSION_INVALID: 400, ZERO_TRUST_BLOCKED: 403, ZERO_TRUST_REVIEW_REQUIRED: 423 },
      ...{ ZERO_TRUST_PENDING_ANALYSIS: 503, SUBJECT_NOT_FOUND: 404 },
      ...{ PROMPT_MANIFEST_INVALID: 500, PROMPT_BUNDLE_HASH_MISMATCH: 500, PROMPT_ELEMENT_STALE: 500 },
      ...{ PROMPT_MANIFEST_CONFLICT: 500, PROMPT_MANIFEST_MISSING: 500, PROMPT_BUNDLE_NOT_IN_BUILD: 404 },
      ...{ PROMPT_INPUT_INVALID: 400 },
      ...{ DECISION_MODEL_TIMEOUT: 504, DECISION_MODEL_UNAVAILABLE: 503, DECISION_MODEL_REFUSED: 502 },
      ...{ DECISION_MODEL_MALFORMED: 502, DECISION_BUNDLE_UNSUPPORTED: 500, EVIDENCE_UNREADABLE: 500 },
      ...{ MODEL_REDIRECT_REFUSED: 502, MODEL_ANSWER_TOO_LARGE: 502, RESOURCE_NAMER_FAILED: 502 },
      ...{ RELEASE_NOT_FOUND: 404, RELEASE_TRANSITION_BLOCKED: 422, ROLLBACK_REFUSED: 422 },
      ...{ ROLLBACK_EXECUTION_NOT_FOUND: 404, ROLLBACK_EXECUTION_NOT_OPEN: 409 },
      ...{ APPROVAL_BY_OPERATOR_FORBIDDEN: 403, RELEASE_REGISTRY_BUSY: 409 },
      ...{ EVIDENCE_INVALID: 400, EVALUATION_RECORD_INCONSISTENT: 422 },
    });
  });
});
