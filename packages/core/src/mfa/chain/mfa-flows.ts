import type { MfaFlow } from "../flow/mfa-flow.js";

/**
 * The flows of the platform's `.mfa()` chains, in chain order: the `mfa` sign-in method adds each
 * flow it plans, the chain hook hands the other chains' challenged users to them. A host that
 * replaces the `mfa` sign-in method adds its flows here too; the hook refuses the start when the
 * configuration has more `.mfa()` chains than flows (their users would sign in without MFA).
 */
export class MfaFlows {
  private readonly list: MfaFlow[] = [];

  /** Adds a planned flow. */
  add(flow: MfaFlow): void {
    this.list.push(flow);
  }

  /** Every flow, in chain order. */
  all(): readonly MfaFlow[] {
    return this.list;
  }
}
