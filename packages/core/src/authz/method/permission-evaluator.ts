import type { InjectionToken } from "tsyringe";
import type { Authentication } from "../../identity/authentication/authentication.js";

/** Answers `hasPermission(resource, action)` in method policies. */
export interface PermissionEvaluator {
  hasPermission(authentication: Authentication | undefined, resource: string, action: string): boolean;
}

/** DI token of the PermissionEvaluator port. */
export const PermissionEvaluator: InjectionToken<PermissionEvaluator> = Symbol.for(
  "platform.PermissionEvaluator",
);

/**
 * The default: a permission is an authority named `<resource>:<action>` (case-insensitive), e.g.
 * `order:read`; `<resource>:*` grants every action on the resource.
 */
export class AuthorityPermissionEvaluator implements PermissionEvaluator {
  hasPermission(authentication: Authentication | undefined, resource: string, action: string): boolean {
    if (!authentication) return false;
    const exact = `${resource}:${action}`.toLowerCase();
    const any = `${resource}:*`.toLowerCase();
    return authentication.authorities.some((a) => {
      const lower = a.toLowerCase();
      return lower === exact || lower === any;
    });
  }
}
