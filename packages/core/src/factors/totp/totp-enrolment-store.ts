import type { InjectionToken } from "tsyringe";

/** One account's authenticator app: its sealed secret, whether it was confirmed, the last step used. */
export interface TotpEnrolment {
  readonly userId: string;
  /** The secret sealed by the key ring (`TotpSecretSeal`); never the secret itself. */
  readonly sealedSecret: string;
  /** Only a confirmed enrolment (a code of it was shown back once) counts as a factor. */
  readonly confirmed: boolean;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  /** The newest time step a code was accepted for; a code of this step or an older one is refused. */
  readonly lastStep?: number;
  /** Wrong codes sent to confirm this (unconfirmed) enrolment so far. */
  readonly confirmFailures?: number;
}

/**
 * Where authenticator-app enrolments live, one per account. Every change that decides whether a
 * code counts is one atomic step of the store: a second `confirm` or `claimStep` of the same step
 * loses, so a code is accepted at most once per account and step, across instances.
 */
export interface TotpEnrolmentStore {
  /** The account's enrolment, confirmed or not. */
  find(userId: string): Promise<TotpEnrolment | undefined>;
  /**
   * Starts an unconfirmed enrolment, replacing an unconfirmed one; false (nothing written) when the
   * account already has a confirmed one.
   */
  begin(enrolment: { userId: string; sealedSecret: string; createdAt: number }): Promise<boolean>;
  /** Confirms the unconfirmed enrolment holding `sealedSecret`, spending `step`; false otherwise. */
  confirm(userId: string, sealedSecret: string, step: number): Promise<boolean>;
  /**
   * Counts a wrong code against the unconfirmed enrolment holding `sealedSecret`, in one atomic step;
   * the `max`th removes it (the user starts again with a new secret). True when it was removed.
   */
  recordConfirmFailure(userId: string, sealedSecret: string, max: number): Promise<boolean>;
  /** Spends `step` of a confirmed enrolment when it is newer than `lastStep`; false otherwise. */
  claimStep(userId: string, step: number): Promise<boolean>;
  /** Removes the account's enrolment; false when there was none. */
  remove(userId: string): Promise<boolean>;
}

/** DI token of the TotpEnrolmentStore port. */
export const TotpEnrolmentStore: InjectionToken<TotpEnrolmentStore> = Symbol.for(
  "platform.TotpEnrolmentStore",
);
