import type { UserRepository } from "../users/user-repository.js";
import type { OneTimeTokenDelivery, OneTimeTokenMessage } from "./one-time-token-delivery.js";

/**
 * A OneTimeTokenDelivery that addresses each message before handing it on: to the account's e-mail
 * address when it has one (`UserAccount.email`, set by an administrator or the host's repository, so
 * trusted), else to the username as before (a host's delivery maps it). The lookup runs inside
 * `deliver`, which the sign-in paths call after their answer, so it cannot tell a caller anything.
 */
export function addressedDelivery(
  delivery: OneTimeTokenDelivery,
  users: UserRepository,
): OneTimeTokenDelivery {
  return {
    async deliver(message: OneTimeTokenMessage): Promise<void> {
      const account = await users.findByUsername(message.username);
      const to = account?.email ?? message.to;
      await delivery.deliver(to === message.to ? message : { ...message, to });
    },
  };
}
