import type { InjectionToken } from "tsyringe";
import type { DistributedLock } from "../../../kernel/coordination/distributed-lock.js";
import { PlatformError } from "../../../kernel/platform-error.js";
import type { UserAccount } from "../user-account.js";
import { USER_LIST_MAX_LIMIT, type UserRepository } from "../user-repository.js";

/**
 * A feature's say on whether an account is unavailable as an administrator beyond its own fields
 * (zero trust: a live BLOCK or ESCALATE; MFA: a lockout). A family read by the AdministratorGuard.
 */
export interface AdministratorAvailabilityCheck {
  /** A literal name, for diagnostics. */
  readonly id: string;
  /** True when the account cannot administer now (it must read the store, not a cache). */
  unavailable(account: UserAccount): Promise<boolean>;
  /** Clears what makes the account unavailable (the break-glass path, `restoreAdministrator`). */
  restore(account: UserAccount): Promise<void>;
}

/** DI token of the AdministratorAvailabilityCheck family. */
export const AdministratorAvailabilityCheck: InjectionToken<AdministratorAvailabilityCheck> = Symbol.for(
  "platform.AdministratorAvailabilityCheck",
);

/** The lease every change that may end an administrator's availability takes, on every instance. */
export const AVAILABLE_ADMINISTRATORS_LOCK = "platform.available-administrators";

/** What an AdministratorGuard needs. */
export interface AdministratorGuardOptions {
  users: Pick<UserRepository, "findById" | "list">;
  lock: DistributedLock;
  /** The family's members (read at each check: later plugins add them). */
  checks: () => readonly AdministratorAvailabilityCheck[];
  /** A fresh lease owner id. */
  owner: () => string;
  /** The authority of an administrator (default `ROLE_ADMIN`). */
  adminAuthority?: string;
  /** Longest a guarded change holds the lease (default 10 s: far above a change's few store writes). */
  leaseMs?: number;
  /** Longest a change waits for another's lease before answering 409 CONFLICT (default 5 s). */
  waitMs?: number;
}

/**
 * Keeps at least one available administrator: an account that is enabled, not locked, holds the
 * administrator authority and that no availability check rules out (zero trust, MFA lockout). Every
 * change that may end an account's availability (disable, delete, authorities, a zero-trust BLOCK or
 * ESCALATE, by an administrator, a host or the decision pipeline) runs through `guard`, which takes one
 * platform-wide lease (DistributedLock, one atomic step of the store), so two such changes on any two
 * instances are decided one after the other and cannot both remove "the other" administrator.
 */
export class AdministratorGuard {
  readonly adminAuthority: string;
  private readonly leaseMs: number;
  private readonly waitMs: number;

  constructor(private readonly o: AdministratorGuardOptions) {
    this.adminAuthority = o.adminAuthority ?? "ROLE_ADMIN";
    this.leaseMs = o.leaseMs ?? 10_000;
    this.waitMs = o.waitMs ?? 5_000;
  }

  /** True when the account is an available administrator now. */
  async isAvailable(account: UserAccount): Promise<boolean> {
    if (!account.enabled || account.locked || !account.authorities.includes(this.adminAuthority))
      return false;
    for (const check of this.o.checks()) if (await check.unavailable(account)) return false;
    return true;
  }

  /** True when an available administrator other than `exceptUserId` exists (pages through the users). */
  async anotherAvailable(exceptUserId: string): Promise<boolean> {
    for (let offset = 0; ; offset += USER_LIST_MAX_LIMIT) {
      const page = await this.o.users.list({ offset, limit: USER_LIST_MAX_LIMIT });
      for (const account of page) {
        if (account.id !== exceptUserId && (await this.isAvailable(account))) return true;
      }
      if (page.length < USER_LIST_MAX_LIMIT) return false;
    }
  }

  /**
   * Runs `change`, which may end `userId`'s availability as an administrator, under the lease: when
   * `userId` is an available administrator and no other is, it throws 409 LAST_ADMINISTRATOR and
   * `change` does not run. 409 CONFLICT when another guarded change holds the lease past `waitMs`.
   */
  async guard<T>(userId: string, change: () => Promise<T>): Promise<T> {
    const owner = this.o.owner();
    await this.acquire(owner);
    try {
      const account = await this.o.users.findById(userId);
      if (
        account !== undefined &&
        (await this.isAvailable(account)) &&
        !(await this.anotherAvailable(userId))
      ) {
        throw new PlatformError("LAST_ADMINISTRATOR", "This change would leave no available administrator");
      }
      return await change();
    } finally {
      await this.o.lock.release(AVAILABLE_ADMINISTRATORS_LOCK, owner).catch(() => false);
    }
  }

  private async acquire(owner: string): Promise<void> {
    const deadline = Date.now() + this.waitMs;
    for (let attempt = 1; ; attempt++) {
      if (await this.o.lock.tryAcquire(AVAILABLE_ADMINISTRATORS_LOCK, owner, this.leaseMs)) return;
      if (Date.now() >= deadline) {
        throw new PlatformError("CONFLICT", "Another change to administrators is in progress; try again");
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(10 * attempt, 100)));
    }
  }
}

/** DI token of the AdministratorGuard (a host may replace it, e.g. with another authority). */
export const AdministratorGuardToken: InjectionToken<AdministratorGuard> = Symbol.for(
  "platform.AdministratorGuard",
);
