import type { AdministratorGuard } from "../../identity/users/admin/administrator-guard.js";
import type { UserRepository } from "../../identity/users/user-repository.js";
import { AuditSink } from "../../kernel/audit-sink.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { ZERO_TRUST_ACTIONS, type ZeroTrustAction } from "./zero-trust-action.js";
import { ZeroTrustActionResolver } from "./zero-trust-action-resolver.js";
import {
  type ZeroTrustActionListOptions,
  type ZeroTrustActionRecord,
  type ZeroTrustActionSource,
  ZeroTrustActionStore,
} from "./zero-trust-action-store.js";
import { ZERO_TRUST_AUDIT } from "./zero-trust-audit.js";
import {
  requireZeroTrustSubject,
  usernameOfZeroTrustSubject,
  zeroTrustSessionSubject,
  zeroTrustUserSubject,
} from "./zero-trust-subject.js";

/** A session's handle as the account page lists it: base64url SHA-256, 43 characters. */
const ACCOUNT_SESSION_HANDLE = /^[A-Za-z0-9_-]{43}$/;
/** How long zero trust's own session handle is (sessionHandle: the digest's first 22 characters). */
const ZERO_TRUST_SESSION_HANDLE_LENGTH = 22;
import { zeroTrustMaxTtlMs, zeroTrustTtlOf } from "./zero-trust-ttl.js";
import type { ZeroTrustSettings } from "./zero-trust.properties.js";

/** Longest operator reason kept with a record. */
export const ZERO_TRUST_REASON_MAX_LENGTH = 500;

/** What the service reads of the UserRepository: a user subject must name an account. */
export type ZeroTrustUserLookup = Pick<UserRepository, "findById" | "findByUsername">;

/** The ChangeCounters topic other instances poll to drop their cached zero-trust reads. */
export const ZERO_TRUST_CHANGES_TOPIC = "zerotrust.actions";

/** What the service tells when it wrote or cleared something other instances must see at once. */
export type ZeroTrustChangeSignal = () => Promise<unknown>;

/** How to write an action. */
export interface ZeroTrustSetOptions {
  /** Operator-facing reason (at most ZERO_TRUST_REASON_MAX_LENGTH characters). */
  readonly reason?: string;
  readonly source: ZeroTrustActionSource;
  /** Lifetime; default and bounds in zeroTrustTtlOf (zero-trust-ttl.ts). */
  readonly ttlMs?: number;
  /** Who wrote it, for the audit record (an administrator's username); default the source. */
  readonly actor?: string;
}

/** How to clear an action. */
export interface ZeroTrustClearOptions {
  readonly source?: ZeroTrustActionSource;
  /** Who cleared it, for the audit record; default the source, else `system`. */
  readonly actor?: string;
}

/**
 * Writes zero-trust actions: validates the subject, the action and the reason, picks the ttl
 * (zeroTrustTtlOf: ALLOW 15 s, CHALLENGE 1800 s, ESCALATE 300 s; a user BLOCK lasts
 * `cache.ttl-hours`, a session BLOCK `cache.invalidated-ttl-minutes`; other session records at most
 * `cache.session-ttl-minutes`; PENDING_ANALYSIS only with an explicit ttl), stores it, drops this
 * process's cached read of the subject, tells the other processes through the `zerotrust.actions`
 * change counter (a BLOCK or ESCALATE of a user, an administrator's or the host's write, a clear: they
 * drop their cached reads within `platform.changes.poll-interval`; other writes within
 * `store.update-interval-seconds`), and audits `zerotrust.action.set` / `zerotrust.action.cleared`.
 * The blocked list is the live user BLOCK records: `list({ action: "BLOCK" })`. With `users`, `set`
 * refuses a `user:<id>` naming no account (404 SUBJECT_NOT_FOUND): such a record would never match a
 * caller. `clear` and `get` take any well-formed subject, so a deleted user's record can still go.
 * Session handles are one-way hashes and cannot be checked; any well-formed one is taken. A BLOCK or
 * ESCALATE of a user runs through the AdministratorGuard: 409 LAST_ADMINISTRATOR when it would leave
 * no available administrator, whoever writes it (an administrator, the host, the decision pipeline).
 */
export class ZeroTrustActionService {
  constructor(
    private readonly store: ZeroTrustActionStore,
    private readonly resolver: ZeroTrustActionResolver,
    private readonly audit: AuditSink,
    private readonly users?: ZeroTrustUserLookup,
    /** Keeps an available administrator: a user BLOCK or ESCALATE runs through it (409 LAST_ADMINISTRATOR). */
    private readonly guard?: AdministratorGuard,
    /** Bumps the `zerotrust.actions` counter: other instances drop their cached reads within the poll interval. */
    private readonly signal?: ZeroTrustChangeSignal,
  ) {}

  /** The zero-trust settings in force (the resolver's). */
  get settings(): ZeroTrustSettings {
    return this.resolver.settings;
  }

  /** Stores `action` for `subject` (replacing its record) and returns the stored record. */
  async set(
    subject: string,
    action: ZeroTrustAction,
    options: ZeroTrustSetOptions,
  ): Promise<ZeroTrustActionRecord> {
    const { kind, id } = requireZeroTrustSubject(subject);
    if (!ZERO_TRUST_ACTIONS.includes(action)) {
      throw new PlatformError("VALIDATION_FAILED", `action must be one of ${ZERO_TRUST_ACTIONS.join(", ")}`, {
        details: { fields: ["action"], allowed: ZERO_TRUST_ACTIONS },
      });
    }
    const reason = checkReason(options.reason);
    if (typeof options.source !== "string" || options.source.length === 0 || options.source.length > 64) {
      throw new PlatformError("VALIDATION_FAILED", "source must be 1..64 characters", {
        details: { fields: ["source"] },
      });
    }
    const ttlMs = zeroTrustTtlOf(kind, action, options.ttlMs, this.resolver.settings);
    if (kind === "user" && this.users && !(await this.users.findById(id))) {
      throw new PlatformError(
        "SUBJECT_NOT_FOUND",
        "No user has this id (name a user by username with username:<name>)",
        {
          details: { fields: ["subject"] },
        },
      );
    }
    const put = async () => {
      try {
        return await this.store.put(
          { subject, action, ...(reason === undefined ? {} : { reason }), source: options.source },
          ttlMs,
        );
      } finally {
        // Even a failed put may have landed; never serve the old read from this process.
        this.resolver.invalidate(subject);
      }
    };
    const restricts = kind === "user" && (action === "BLOCK" || action === "ESCALATE");
    const record = restricts && this.guard ? await this.guard.guard(id, put) : await put();
    if (restricts || options.source === "admin" || options.source === "host") await this.tell();
    this.record({
      type: ZERO_TRUST_AUDIT.actionSet,
      principal: options.actor ?? options.source,
      data: {
        subject,
        action,
        source: options.source,
        ttlMs,
        expiresAt: record.expiresAt,
        version: record.version,
        ...(reason === undefined ? {} : { reason }),
      },
    });
    return record;
  }

  /** Removes the subject's action; true when a live one existed. */
  async clear(subject: string, options: ZeroTrustClearOptions = {}): Promise<boolean> {
    requireZeroTrustSubject(subject);
    let existed: boolean;
    try {
      existed = await this.store.delete(subject);
    } finally {
      this.resolver.invalidate(subject);
    }
    if (existed) await this.tell();
    this.record({
      type: ZERO_TRUST_AUDIT.actionCleared,
      principal: options.actor ?? options.source ?? "system",
      data: { subject, existed, ...(options.source === undefined ? {} : { source: options.source }) },
    });
    return existed;
  }

  /** The subject's live record, read from the store (not the hot-path cache). */
  get(subject: string): Promise<ZeroTrustActionRecord | undefined> {
    requireZeroTrustSubject(subject);
    return this.store.get(subject);
  }

  /** Live records, newest first, at most `limit` (default 100, at most 1000). */
  list(options?: ZeroTrustActionListOptions): Promise<ZeroTrustActionRecord[]> {
    return this.store.list(options);
  }

  /**
   * The stored form of an administrator's subject: `user:<id>` and `session:<handle>` as given (the
   * account page's 43-character session handle as zero trust's own 22-character one, the same digest),
   * `username:<name>` as `user:<id>` of that account (404 SUBJECT_NOT_FOUND when none, or without a
   * user lookup). VALIDATION_FAILED for anything else.
   */
  async canonicalSubject(subject: string): Promise<string> {
    const username = usernameOfZeroTrustSubject(subject);
    if (username === undefined) {
      const { kind, id } = requireZeroTrustSubject(subject);
      // The account page's handle of a session (its id's whole SHA-256, 43 characters) names the
      // session zero trust knows by the first 22 characters of the same digest (sessionHandle).
      if (kind === "session" && ACCOUNT_SESSION_HANDLE.test(id)) {
        return zeroTrustSessionSubject(id.slice(0, ZERO_TRUST_SESSION_HANDLE_LENGTH));
      }
      return subject;
    }
    const account = await this.users?.findByUsername(username);
    if (!account) {
      throw new PlatformError("SUBJECT_NOT_FOUND", "No user has this username", {
        details: { fields: ["subject"] },
      });
    }
    return zeroTrustUserSubject(account.id);
  }

  /** The longest ttl `set` accepts for this subject and action (VALIDATION_FAILED for a bad subject). */
  maxTtlMs(subject: string, action: ZeroTrustAction): number {
    return zeroTrustMaxTtlMs(requireZeroTrustSubject(subject).kind, action, this.resolver.settings);
  }

  // The write stands whether or not the others hear of it now; they re-read within the cache period anyway.
  private async tell(): Promise<void> {
    try {
      await this.signal?.();
    } catch {
      // Other instances fall back to `store.update-interval-seconds`.
    }
  }

  private record(event: { type: string; principal: string; data: Record<string, unknown> }): void {
    try {
      this.audit.record({ ...event, outcome: "success" });
    } catch {
      // The write happened; a broken sink must not report it as failed.
    }
  }
}

// Reasons land in audit records and the admin API: bounded, and no control characters that could
// forge log lines.
function checkReason(reason: unknown): string | undefined {
  if (reason === undefined) return undefined;
  if (typeof reason !== "string" || reason.length > ZERO_TRUST_REASON_MAX_LENGTH || /\p{Cc}/u.test(reason)) {
    throw new PlatformError(
      "VALIDATION_FAILED",
      `reason must be text of at most ${ZERO_TRUST_REASON_MAX_LENGTH} characters without control characters`,
      { details: { fields: ["reason"] } },
    );
  }
  const trimmed = reason.trim();
  return trimmed.length === 0 ? undefined : trimmed;
}
