import type { DependencyContainer } from "tsyringe";
import type { AccountDeletionHook } from "../../identity/users/admin/account-deletion-hook.js";
import type { AccountFactorReset } from "../../identity/users/admin/account-factor-reset.js";
import { Factor } from "./factor.js";

/** Removes `userId`'s enrolment of every registered factor that keeps one; the types removed. */
export async function removeFactorEnrolments(
  container: DependencyContainer,
  userId: string,
): Promise<string[]> {
  const removed: string[] = [];
  for (const member of container.resolveAll(Factor)) {
    if (member.removeEnrolment && (await member.removeEnrolment(userId))) removed.push(member.type);
  }
  return removed;
}

/**
 * The factor family's part of the users admin API: the administrator's factor reset removes every
 * plugin factor's enrolment (every registered member, offered or not: a factor taken off the offer
 * keeps nothing behind).
 */
export function factorFamilyReset(container: DependencyContainer): AccountFactorReset {
  return {
    id: "mfa-factors",
    resetFactors: (account) => removeFactorEnrolments(container, account.id),
  };
}

/** The factor family's part of deleting an account: its enrolments go with it (idempotent). */
export function factorFamilyDeletion(container: DependencyContainer): AccountDeletionHook {
  return {
    id: "mfa-factors",
    accountDeleting: async (account) => {
      await removeFactorEnrolments(container, account.id);
    },
  };
}
