import type { InjectionToken } from "tsyringe";
import type { FactorType } from "../factor-type.js";

/** How a client asks for a factor's answer: a typed code, or a passkey ceremony. */
export type FactorKind = "code" | "passkey";

/**
 * Where a selected factor's challenge waits: the spec's two named states for its two factors, and
 * one generic state for every factor the spec does not name (docs/mfa-state-machine.md).
 */
export type FactorChallengeState = "OTT_CHALLENGE" | "PASSKEY_CHALLENGE" | "FACTOR_CHALLENGE";

/** What a factor is, without its ports: enough for the state machine, the pages and the wire. */
export interface FactorDescription {
  /** The factor's name on the wire and in `requiredFactors` (upper snake case: `OTT`, `TOTP`). */
  readonly type: FactorType;
  /** How the SDK's overlay and the pages ask for the answer. */
  readonly kind: FactorKind;
  /** The name the pages show (`One-time code`, `Authenticator app`). */
  readonly label: string;
  /** The state a selected challenge of this factor waits in. */
  readonly challengeState: FactorChallengeState;
  /** The RFC 8176 `amr` value a verified answer adds to the authentication. */
  readonly proves: "otp" | "hwk";
  /** How many failures one wrong answer counts toward the account's MFA lockout (1 for every built-in). */
  readonly lockoutWeight: number;
  /**
   * A generic factor's own URLs, before the flow's urlPrefix: where the answer is posted (`verify`,
   * e.g. `/login/mfa-totp`) and its challenge page (e.g. `/mfa/challenge/totp`). The built-in factors
   * keep the spec's URLs (the flow's `ott*` and `passkey*` URLs) and leave this out.
   */
  readonly urls?: { readonly verify: string; readonly challengePage: string };
  /**
   * A stand-in for a lost factor (recovery codes): it never takes the place of a factor a flow names
   * as required. A flow offering it must ask for fewer factors than it names besides its stand-ins
   * (`requiredFactors(1)` of OTT and TOTP), else the start is refused (docs/mfa-state-machine.md).
   */
  readonly standIn?: boolean;
  /**
   * How a generic code factor's page asks for the answer: its instruction line, and whether the code
   * is digits (`numeric`, the default: phones show a number pad) or letters and digits (`text`).
   */
  readonly codeEntry?: { readonly instructions: string; readonly inputMode: "numeric" | "text" };
}

/**
 * A member of the factor family: one secondary factor an MFA flow can ask for. The built-in OTT and
 * PASSKEY members describe the spec's factors (their challenges and answers are the MFA module's own
 * endpoints); a plugin adds a factor by registering one member under this token
 * (`ctx.registerMember(Factor, …)`). Enrolment is the plugin's own business: `enrolled` says whether
 * a user can use the factor now (an unconfirmed enrolment never counts).
 */
export interface Factor extends FactorDescription {
  /** Whether `userId` can answer this factor now (enrolled and confirmed). */
  enrolled(userId: string): Promise<boolean>;
  /**
   * A generic factor's check of an answer, in one atomic step: true spends the answer (a code is
   * accepted at most once), false is a wrong answer the flow counts. Required when `urls` is set.
   */
  verify?(attempt: FactorAttempt): Promise<boolean>;
  /**
   * For a factor of single-use answers (recovery codes): how many `userId` has left. The account
   * page shows it; factors without a count leave it out.
   */
  remaining?(userId: string): Promise<number>;
  /**
   * Removes `userId`'s enrolment of this factor (an administrator's reset after a lost phone, or the
   * user's own removal); true when there was one. Factors whose enrolments live elsewhere (OTT: the
   * account's address; PASSKEY: the passkey list) leave it out.
   */
  removeEnrolment?(userId: string): Promise<boolean>;
}

/** One answer to a generic factor's challenge. */
export interface FactorAttempt {
  /** The flow's user. */
  readonly userId: string;
  /** What the client sent (`token`, or `code`), unchecked. */
  readonly answer: unknown;
}

/** DI token of the factor family (register members with `registerMember`; read with `resolveAll`). */
export const Factor: InjectionToken<Factor> = Symbol.for("platform.Factor");

/** What a code factor's answer is called in the route table (`authenticator app code`, `recovery code`). */
export function codeNameOf(label: string): string {
  const name = label.toLowerCase();
  return name.endsWith("code") ? name : `${name} code`;
}
