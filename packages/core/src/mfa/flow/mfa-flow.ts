import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
} from "../../identity/handlers/authentication-handlers.js";
import type { MfaPolicyProvider } from "../decision/mfa-policy-provider.js";
import type { FactorType } from "../factor-type.js";
import type { MfaUrls } from "../urls/mfa-urls.js";
import type { FactorDescription } from "../factor-family/factor.js";

/** A generic factor's URLs under the flow's urlPrefix. */
export interface GenericFactorUrls {
  /** `POST`: the answer (e.g. `/login/mfa-totp`). */
  readonly verify: string;
  /** `GET`: the challenge page (e.g. `/mfa/challenge/totp`). */
  readonly challengePage: string;
}

/** One MFA flow as the runtime sees it (built from an `.mfa()` registration). */
export interface MfaFlow {
  /** `mfa`, `mfa_2`, `mfa_<name>`: also the chain id. */
  typeName: string;
  /** How the final step keeps the user signed in. */
  stateKind: "session" | "oauth2";
  primaryKind: "form" | "rest";
  /** Secondary factors in step order (1, 2, ...). */
  factors: readonly FactorType[];
  /** The family's description of each factor of the flow, in step order. */
  factorMembers: readonly FactorDescription[];
  /** Each generic factor's URLs (prefixed), by type; the built-in factors use `urls`. */
  factorUrls: Readonly<Record<FactorType, GenericFactorUrls>>;
  /** Distinct factors that must complete (default: all). */
  requiredFactors: number;
  urls: MfaUrls;
  policy: MfaPolicyProvider;
  /** The final step's success handler (mfaSuccessHandler, else by state type). */
  successHandler: AuthenticationSuccessHandler;
  /** The flow's failure handler (mfaFailureHandler, else the unified one). */
  failureHandler: AuthenticationFailureHandler;
}
