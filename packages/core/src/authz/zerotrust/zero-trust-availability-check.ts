import type { AdministratorAvailabilityCheck } from "../../identity/users/admin/administrator-guard.js";
import { toZeroTrustAction } from "./zero-trust-action.js";
import type { ZeroTrustActionStore } from "./zero-trust-action-store.js";
import { zeroTrustUserSubject } from "./zero-trust-subject.js";

/**
 * Zero trust's say on the last-administrator rule: an account under a live BLOCK or ESCALATE of its
 * user subject cannot administer (an ESCALATE needs a reviewer, who may not exist). Read from the
 * store, never the hot-path cache; an unknown action string reads as ESCALATE, as the resolver reads it.
 */
export function zeroTrustAvailabilityCheck(store: ZeroTrustActionStore): AdministratorAvailabilityCheck {
  return {
    id: "zero-trust",
    async unavailable(account) {
      const record = await store.get(zeroTrustUserSubject(account.id));
      if (record === undefined) return false;
      const action = toZeroTrustAction(String(record.action));
      return action === "BLOCK" || action === "ESCALATE";
    },
    async restore(account) {
      await store.delete(zeroTrustUserSubject(account.id));
    },
  };
}
