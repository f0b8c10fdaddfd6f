// The built-in error code tables assembled: one table per module, in the modules' order (kernel ← web
// ← identity ← mfa ← authz ← prompts ← decisions ← governance). Importing this file registers all of them; it sits above every module so
// no module imports a higher one to know the whole list.
import { AUTHZ_ERROR_CODES } from "./authz/authz-error-codes.js";
import { DECISIONS_ERROR_CODES } from "./decisions/decisions-error-codes.js";
import { GOVERNANCE_ERROR_CODES } from "./governance/governance-error-codes.js";
import { IDENTITY_ERROR_CODES } from "./identity/identity-error-codes.js";
import { KERNEL_ERROR_CODES } from "./kernel/kernel-error-codes.js";
import { MFA_ERROR_CODES } from "./mfa/mfa-error-codes.js";
import { PROMPTS_ERROR_CODES } from "./prompts/prompts-error-codes.js";
import { WEB_ERROR_CODES } from "./web/web-error-codes.js";
// The same modules by side effect: a declaration file keeps these (it drops the named imports above,
// whose types it inlines), so a consumer's program loads each table's merge into PlatformErrorCodes.
import "./authz/authz-error-codes.js";
import "./decisions/decisions-error-codes.js";
import "./governance/governance-error-codes.js";
import "./identity/identity-error-codes.js";
import "./mfa/mfa-error-codes.js";
import "./prompts/prompts-error-codes.js";
import "./web/web-error-codes.js";

/** Every built-in code table by module; docs/errors.md shows them in this order (a test keeps it equal). */
export const ERROR_CODE_TABLES = Object.freeze({
  kernel: KERNEL_ERROR_CODES,
  web: WEB_ERROR_CODES,
  identity: IDENTITY_ERROR_CODES,
  mfa: MFA_ERROR_CODES,
  authz: AUTHZ_ERROR_CODES,
  prompts: PROMPTS_ERROR_CODES,
  decisions: DECISIONS_ERROR_CODES,
  governance: GOVERNANCE_ERROR_CODES,
});

type Tables = typeof ERROR_CODE_TABLES;

/** A code of one of the built-in tables (PlatformErrorCode also holds a host's codes). */
export type BuiltInErrorCode = { [M in keyof Tables]: keyof Tables[M] }[keyof Tables];

/** The status of every built-in code, as one flat object (the form `ERROR_STATUS` always had). */
export const ERROR_STATUS: Readonly<Record<BuiltInErrorCode, number>> = Object.freeze(
  Object.fromEntries(
    Object.values(ERROR_CODE_TABLES).flatMap((table) =>
      Object.entries(table).map(([code, entry]) => [code, entry.status]),
    ),
  ) as Record<BuiltInErrorCode, number>,
);
