import type { Client } from "../client.js";
import { CLIENT_EVENTS } from "../client-events.js";
import { PlatformMfaError } from "../platform-mfa-error.js";
import { interceptFetch } from "./fetch-interceptor.js";
import { takeResume } from "./resume-record.js";
import type { RetryUnsafe } from "./retry-policy.js";
import type { ChallengeHandler, InterceptedRequest } from "./step-up-challenge.js";
import { StepUpCoordinator } from "./step-up-coordinator.js";
import { showStepUpOverlay } from "./step-up-overlay.js";
import { interceptXhr } from "./xhr-interceptor.js";

/** Options of `client.installInterceptor(options)` / `PlatformMFA.installInterceptor(options)`. */
export interface InterceptorOptions {
  /**
   * How a step-up is completed: `overlay` (default: the built-in overlay, or `onChallenge`, in the
   * page) or `redirect` (only when configured: method and URL are kept in sessionStorage, the browser
   * goes to the challenge page, and `mfa:resumed` announces them when the page loads again).
   */
  fallback?: "overlay" | "redirect";
  /** A custom challenge UI instead of the built-in overlay (resolve when a factor verified). */
  onChallenge?: ChallengeHandler;
  /** Where a refusal no factor can clear sends the browser (a local path); default none: only `mfa:blocked`. */
  blockedRedirectUrl?: string;
  /** Also retry non-idempotent requests without an `Idempotency-Key` (default false). */
  retryUnsafe?: RetryUnsafe;
  /** Intercept `XMLHttpRequest` as well as `fetch` (default true). */
  xhr?: boolean;
}

/** An installed interceptor. */
export interface InterceptorHandle {
  /** The Client that completes challenges and dispatches the interceptor's events. */
  readonly client: Client;
  /** What the page asked for before a redirect fallback (a local path), once; also sent as `mfa:resumed`. */
  readonly resumed: InterceptedRequest | undefined;
  /** Restores `fetch` and `XMLHttpRequest`; a running challenge gives up (callers get the original answers). */
  uninstall(): void;
}

/** Where the page's interceptor is noted (a global symbol: the IIFE and the ES module share it). */
const INSTALLED = Symbol.for("platform.mfa.interceptor");

/**
 * Installs the step-up interceptor over the page's `fetch` and `XMLHttpRequest` (one per page: a
 * second install throws `INTERCEPTOR_INSTALLED` until the first is uninstalled). It only ever looks
 * at requests to the page's own origin and lets the SDK's own requests through. A request remembered
 * by an earlier redirect fallback is announced (`mfa:resumed`) in a task after the install, so
 * listeners added right after this call hear it.
 */
export function installInterceptor(client: Client, options: InterceptorOptions = {}): InterceptorHandle {
  const scope = globalThis as typeof globalThis & { [INSTALLED]?: InterceptorHandle };
  if (scope[INSTALLED]) {
    throw new PlatformMfaError("INTERCEPTOR_INSTALLED", "A step-up interceptor is already installed");
  }
  const coordinator = new StepUpCoordinator(client, options, showStepUpOverlay);
  const undo = [interceptFetch(scope, coordinator)];
  if (options.xhr !== false) undo.push(interceptXhr(scope, coordinator));
  const resumed = takeResume();
  let installed = true;
  const handle: InterceptorHandle = {
    client,
    resumed,
    uninstall() {
      if (!installed) return;
      installed = false;
      for (const u of undo) u();
      coordinator.dispose();
      if (scope[INSTALLED] === handle) delete scope[INSTALLED];
    },
  };
  scope[INSTALLED] = handle;
  if (resumed) setTimeout(() => installed && client.emit(CLIENT_EVENTS.resumed, { resumed }), 0);
  return handle;
}
