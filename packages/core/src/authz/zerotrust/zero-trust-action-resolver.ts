import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock } from "../../kernel/clock.js";
import type { EventBus } from "../../kernel/event-bus.js";
import type { PlatformProperties } from "../../kernel/properties.js";
import { toZeroTrustAction } from "./zero-trust-action.js";
import { type ZeroTrustActionRecord, ZeroTrustActionStore } from "./zero-trust-action-store.js";
import { ZERO_TRUST_AUDIT } from "./zero-trust-audit.js";
import {
  ZERO_TRUST_ANALYSIS_MISSING_EVENT,
  type ZeroTrustAnalysisMissingPayload,
} from "./zero-trust-events.js";
import {
  ZeroTrustRandom,
  type ZeroTrustResolution,
  type ZeroTrustResolutionReason,
  type ZeroTrustResolveInput,
} from "./zero-trust-resolution.js";
import { parseZeroTrustSubject } from "./zero-trust-subject.js";
import { type ZeroTrustSettings, zeroTrustSettingsFromProperties } from "./zero-trust.properties.js";

/** Most subjects of each kind (users, sessions) the hot-path cache holds; beyond, the oldest read is dropped. */
export const ZERO_TRUST_CACHE_MAX_ENTRIES = 100_000;

// One cached store read: the record (frozen, or undefined for "none"), until when it serves the hot
// path, and the resolution it gives when it decides, built once so a cache hit allocates nothing.
interface Entry {
  readonly record: ZeroTrustActionRecord | undefined;
  readonly until: number;
  readonly resolution: ZeroTrustResolution;
}

type Failure = "timeout" | "error";
const TIMED_OUT: unique symbol = Symbol("timed out");

/**
 * Resolves the zero-trust action of a request. Rules, in order: disabled, anonymous, or not sampled
 * (`sampling.rate`, drawn from ZeroTrustRandom, unless the input is `unsampled`) → not evaluated; then a user BLOCK wins (the blocked
 * list; also enforced for unsampled requests when the hot-path cache holds it); then, with session
 * tracking on and a `sessionId`, the session's record; then the user's record; else no analysis
 * (action undefined). An unknown action string from a store reads as ESCALATE (see toZeroTrustAction).
 *
 * Store reads are bounded by `store.timeout`; a slow or throwing store never reaches the caller: the
 * action is PENDING_ANALYSIS with reason `timeout`/`error`, audited as `zerotrust.store.unavailable`,
 * unless the hot-path cache still holds the subject's last record and it has not expired (then that,
 * `stale: true`). Failures are not cached. Concurrent reads of one subject share one store call.
 *
 * Hot path (`hotpath.enabled`): each subject's store read is cached in process for
 * `store.update-interval-seconds`, never past the record's `expiresAt`; `invalidate(subject)` (called
 * by ZeroTrustActionService on every write) drops it, and a read that raced a write is not cached.
 * `resolveCached` answers a hit with a clock read and one or two Map lookups, returning a resolution
 * built at read time (no Promise, no allocation); undefined means "call `await resolve(input)`", and
 * that call does not draw the sampling dice a second time for the same input object.
 */
export class ZeroTrustActionResolver {
  /** The settings in force (read from the properties once). */
  readonly settings: ZeroTrustSettings;
  private readonly users = new Map<string, Entry>();
  private readonly sessions = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<ZeroTrustActionRecord | undefined>>();
  private readonly disabled: ZeroTrustResolution;
  private readonly anonymous: ZeroTrustResolution;
  private readonly notSampled: ZeroTrustResolution;
  private generation = 0;
  private sampled: ZeroTrustResolveInput | undefined;

  constructor(
    private readonly store: ZeroTrustActionStore,
    private readonly clock: Clock,
    private readonly audit: AuditSink,
    properties: PlatformProperties,
    private readonly random: ZeroTrustRandom,
    /** Told of store reads that found no live action (ZERO_TRUST_ANALYSIS_MISSING_EVENT); optional. */
    private readonly events?: EventBus,
  ) {
    this.settings = zeroTrustSettingsFromProperties(properties);
    this.disabled = this.notEvaluated("disabled");
    this.anonymous = this.notEvaluated("anonymous");
    this.notSampled = this.notEvaluated("not-sampled");
  }

  /** The answer without touching the store: not evaluated, or a hot-path cache hit; undefined on a miss. */
  resolveCached(input: ZeroTrustResolveInput): ZeroTrustResolution | undefined {
    const settings = this.settings;
    // `gate` answers nothing (and draws no sample) for a caller when zero trust is on and sampling
    // cannot skip the request: told here without the call.
    if (
      !settings.enabled ||
      input.authentication === undefined ||
      (settings.samplingRate < 1 && input.unsampled !== true)
    ) {
      const early = this.gate(input);
      if (early !== undefined) return early;
    }
    if (!this.settings.hotPathEnabled) {
      this.sampled = input;
      return undefined;
    }
    // The hot-path cache read (`lookup`), inline: every authenticated request passes here.
    const now = this.clock.now();
    const user = this.users.get(input.authentication!.userId);
    let hit: ZeroTrustResolution | undefined;
    if (user !== undefined && now < user.until) {
      const sessionId = this.settings.sessionTrackingEnabled ? input.sessionId : undefined;
      if (sessionId === undefined || user.record?.action === "BLOCK") hit = user.resolution;
      else {
        const session = this.sessions.get(sessionId);
        if (session !== undefined && now < session.until)
          hit = session.record === undefined ? user.resolution : session.resolution;
      }
    }
    if (hit === undefined) this.sampled = input;
    return hit;
  }

  /**
   * The answer for `input` given the resolution this request already made (the `request`
   * checkpoint's, unsampled): the same rules as `resolve` (disabled, anonymous, sampling, a cached
   * user BLOCK), then `resolved` instead of a second lookup. Touches neither the store nor the cache.
   */
  reuse(input: ZeroTrustResolveInput, resolved: ZeroTrustResolution): ZeroTrustResolution {
    return this.gate(input) ?? resolved;
  }

  /** The answer, reading the store on a cache miss. Never rejects. */
  async resolve(input: ZeroTrustResolveInput): Promise<ZeroTrustResolution> {
    const alreadySampled = this.sampled === input;
    this.sampled = undefined;
    if (!alreadySampled) {
      const quick = this.resolveCached(input);
      this.sampled = undefined;
      if (quick !== undefined) return quick;
    }
    return this.load(input);
  }

  /** Forgets the cached read of a subject (`user:<id>` / `session:<handle>`) after a write. */
  invalidate(subject: string): void {
    this.generation++;
    this.inFlight.delete(subject);
    const parsed = parseZeroTrustSubject(subject);
    if (parsed?.kind === "user") this.users.delete(parsed.id);
    else if (parsed?.kind === "session") this.sessions.delete(parsed.id);
  }

  /** Forgets every cached read (e.g. after a bulk change in the store). */
  invalidateAll(): void {
    this.generation++;
    this.inFlight.clear();
    this.users.clear();
    this.sessions.clear();
  }

  private gate(input: ZeroTrustResolveInput): ZeroTrustResolution | undefined {
    if (!this.settings.enabled) return this.disabled;
    const authentication = input.authentication;
    if (authentication === undefined) return this.anonymous;
    const rate = this.settings.samplingRate;
    if (rate < 1 && input.unsampled !== true && !(rate > 0 && this.random() < rate)) {
      if (this.settings.hotPathEnabled) {
        const user = this.users.get(authentication.userId);
        if (user?.record?.action === "BLOCK" && this.clock.now() < user.until) return user.resolution;
      }
      return this.notSampled;
    }
    return undefined;
  }

  private async load(input: ZeroTrustResolveInput): Promise<ZeroTrustResolution> {
    const authentication = input.authentication!;
    const userId = authentication.userId;
    const sessionId = this.settings.sessionTrackingEnabled ? input.sessionId : undefined;
    const generation = this.generation;
    const reads = Promise.all([
      this.read(`user:${userId}`),
      sessionId === undefined ? undefined : this.read(`session:${sessionId}`),
    ]);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), this.settings.storeTimeoutMs);
    });
    let outcome: [ZeroTrustActionRecord | undefined, ZeroTrustActionRecord | undefined] | typeof TIMED_OUT;
    try {
      // race() subscribes to `reads`, so a late rejection after a timeout is handled, not unhandled.
      outcome = await Promise.race([reads, deadline]);
    } catch (error) {
      return this.failed(input, "error", error);
    } finally {
      clearTimeout(timer);
    }
    if (outcome === TIMED_OUT) return this.failed(input, "timeout", undefined);
    const now = this.clock.now();
    const user = this.entry(outcome[0], now, "user");
    const session = sessionId === undefined ? undefined : this.entry(outcome[1], now, "session");
    if (this.settings.hotPathEnabled && generation === this.generation) {
      remember(this.users, userId, user);
      if (session !== undefined) remember(this.sessions, sessionId!, session);
    }
    if (user.record === undefined && session?.record === undefined && input.quiet !== true) {
      this.announceMissing(input, sessionId);
    }
    if (session === undefined || session.record === undefined || user.record?.action === "BLOCK") {
      return user.resolution;
    }
    return session.resolution;
  }

  // Not awaited: the request never waits for whoever analyses the caller.
  private announceMissing(input: ZeroTrustResolveInput, sessionId: string | undefined): void {
    if (this.events === undefined) return;
    const { userId, username } = input.authentication!;
    const payload: ZeroTrustAnalysisMissingPayload = {
      userId,
      username,
      ...(sessionId === undefined ? {} : { sessionHandle: sessionId }),
    };
    void this.events.publish(ZERO_TRUST_ANALYSIS_MISSING_EVENT, payload);
  }

  // One store read per subject at a time; a sync throw of the adapter becomes a rejection.
  private read(subject: string): Promise<ZeroTrustActionRecord | undefined> {
    const pending = this.inFlight.get(subject);
    if (pending !== undefined) return pending;
    const read = Promise.resolve().then(() => this.store.get(subject));
    this.inFlight.set(subject, read);
    const done = () => {
      if (this.inFlight.get(subject) === read) this.inFlight.delete(subject);
    };
    read.then(done, done);
    return read;
  }

  private entry(record: ZeroTrustActionRecord | undefined, now: number, kind: "user" | "session"): Entry {
    const live = record !== undefined && now < record.expiresAt ? sanitize(record) : undefined;
    const until = Math.min(now + this.settings.updateIntervalMs, live?.expiresAt ?? Number.POSITIVE_INFINITY);
    const reason: ZeroTrustResolutionReason =
      live === undefined ? "no-analysis" : live.action === "BLOCK" && kind === "user" ? "blocked" : kind;
    return { record: live, until, resolution: this.evaluated(live, reason) };
  }

  private failed(input: ZeroTrustResolveInput, reason: Failure, error: unknown): ZeroTrustResolution {
    const authentication = input.authentication!;
    try {
      this.audit.record({
        type: ZERO_TRUST_AUDIT.storeUnavailable,
        outcome: "failure",
        principal: authentication.username,
        data: {
          reason,
          userId: authentication.userId,
          timeoutMs: this.settings.storeTimeoutMs,
          ...(error === undefined ? {} : { error: error instanceof Error ? error.name : typeof error }),
        },
      });
    } catch {
      // A broken sink must not turn a degraded answer into a failed request.
    }
    const stale = this.lastKnown(input);
    if (stale !== undefined) return Object.freeze({ ...stale, reason, stale: true as const });
    return Object.freeze({ action: "PENDING_ANALYSIS", evaluated: true, mode: this.settings.mode, reason });
  }

  // The last record read for this request's subjects that has not expired yet, by the usual precedence.
  private lastKnown(input: ZeroTrustResolveInput): ZeroTrustResolution | undefined {
    const now = this.clock.now();
    const usable = (e: Entry | undefined) =>
      e?.record !== undefined && now < e.record.expiresAt ? e : undefined;
    const user = usable(this.users.get(input.authentication!.userId));
    if (user?.record?.action === "BLOCK") return user.resolution;
    const sessionId = this.settings.sessionTrackingEnabled ? input.sessionId : undefined;
    const session = sessionId === undefined ? undefined : usable(this.sessions.get(sessionId));
    return (session ?? user)?.resolution;
  }

  private evaluated(
    record: ZeroTrustActionRecord | undefined,
    reason: ZeroTrustResolutionReason,
  ): ZeroTrustResolution {
    return Object.freeze({
      action: record?.action,
      ...(record === undefined ? {} : { record }),
      evaluated: true,
      mode: this.settings.mode,
      reason,
    });
  }

  private notEvaluated(reason: ZeroTrustResolutionReason): ZeroTrustResolution {
    return Object.freeze({ action: undefined, evaluated: false, mode: this.settings.mode, reason });
  }
}

// A frozen copy; an unknown action string (a store written by other code) reads as ESCALATE.
function sanitize(record: ZeroTrustActionRecord): ZeroTrustActionRecord {
  return Object.freeze({ ...record, action: toZeroTrustAction(String(record.action)) });
}

function remember(map: Map<string, Entry>, key: string, entry: Entry): void {
  map.delete(key);
  if (map.size >= ZERO_TRUST_CACHE_MAX_ENTRIES) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, entry);
}
