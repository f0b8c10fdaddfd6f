import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
} from "../../identity/handlers/authentication-handlers.js";
import type { MfaPolicyProvider } from "../decision/mfa-policy-provider.js";
import type { FactorType } from "../factor-type.js";
import type { MfaUrls } from "../urls/mfa-urls.js";

/** One MFA flow as the runtime sees it (built from an `.mfa()` registration). */
export interface MfaFlow {
  /** `mfa`, `mfa_2`, `mfa_<name>`: also the chain id. */
  typeName: string;
  /** How the final step keeps the user signed in. */
  stateKind: "session" | "oauth2";
  primaryKind: "form" | "rest";
  /** Secondary factors in step order (1, 2, ...). */
  factors: readonly FactorType[];
  /** Distinct factors that must complete (default: all). */
  requiredFactors: number;
  urls: MfaUrls;
  policy: MfaPolicyProvider;
  /** The final step's success handler (mfaSuccessHandler, else by state type). */
  successHandler: AuthenticationSuccessHandler;
  /** The flow's failure handler (mfaFailureHandler, else the unified one). */
  failureHandler: AuthenticationFailureHandler;
}
