import type { MfaStepEndpoints } from "../../web/wire/mfa-messages.js";
import { createHash } from "node:crypto";
import type { Clock } from "../../kernel/clock.js";
import type { HttpExchange, ResponseCookie } from "../../web/http-exchange.js";

/** What a started step-up tells its caller (the 401 body's MFA fields). */
export interface StartedStepUp {
  mfaUrl: string;
  mfaSessionId: string;
  currentState: string;
  /** The flow's step endpoints (absolute paths). */
  endpoints?: Readonly<MfaStepEndpoints>;
  /** Bearer sign-ins only: the binding for `X-MFA-Binding` (joiners share it with the cookie). */
  mfaBinding?: string;
}

interface Entry {
  readonly until: number;
  readonly started: Promise<{ result: StartedStepUp; cookies: readonly ResponseCookie[] }>;
}

/** How long concurrent step-ups of one sign-in share a challenge (default 5 s). */
export const STEP_UP_COALESCE_MS = 5_000;

/**
 * Lets requests of one sign-in that need a step-up at the same moment share one challenge: the
 * first starts it (one MFA session, one code sent), the others within the window get the same MFA
 * session and the same binding cookie instead of opening their own (and mailing a code each). The
 * key is the sign-in (a hash of the session id, or the access token's id), so nobody joins a
 * challenge they could not have started, and a challenge that already ended is never joined.
 * In-process only; a cluster still opens one per instance.
 */
export class StepUpCoalescer {
  private readonly live = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    /** Whether a started challenge can still be completed (not finished, cancelled or expired). */
    private readonly isLive: (started: StartedStepUp) => Promise<boolean> = async () => true,
    private readonly windowMs = STEP_UP_COALESCE_MS,
  ) {}

  /** Starts a step-up through `begin`, or joins the one `key` started within the window. */
  async start(
    key: string | undefined,
    exchange: HttpExchange,
    begin: () => Promise<StartedStepUp>,
  ): Promise<StartedStepUp> {
    if (key === undefined) return begin();
    const now = this.clock.now();
    this.sweep(now);
    const hashed = createHash("sha256").update(key).digest("base64url");
    const running = this.live.get(hashed);
    if (running && running.until > now) {
      const joined = await running.started.then(
        async (s) => ((await this.isLive(s.result)) ? s : undefined),
        () => undefined,
      );
      if (joined) {
        for (const cookie of joined.cookies) exchange.setCookie({ ...cookie });
        return joined.result;
      }
      // That challenge already ended (completed, cancelled, failed): this request starts a new one.
      if (this.live.get(hashed) === running) this.live.delete(hashed);
    }
    const before = new Set(exchange.response.cookies);
    const started = begin().then((result) => ({
      result,
      // The cookies this start set (the MFA binding): joiners carry the same ones.
      cookies: exchange.response.cookies.filter((c) => !before.has(c)).map((c) => ({ ...c })),
    }));
    this.live.set(hashed, { until: now + this.windowMs, started });
    started.catch(() => this.live.delete(hashed));
    return (await started).result;
  }

  private sweep(now: number): void {
    if (this.live.size < 64) return;
    for (const [key, entry] of this.live) if (entry.until <= now) this.live.delete(key);
  }
}
