import { PlatformMfaError } from "./platform-mfa-error.js";
import type { PublicKeyRequestOptionsJson } from "./types.js";
import { toRequestOptions } from "./webauthn.js";

/** How a ceremony asks: `modal` (the browser's dialog) or `conditional` (autofill in a username field). */
export type PasskeyMediation = "modal" | "conditional";

interface Running {
  controller: AbortController;
  done: Promise<unknown>;
}

/**
 * One passkey ceremony at a time (`navigator.credentials.get`): a new ceremony aborts the pending one
 * and waits until the browser released it (Chromium refuses a second request while one is pending),
 * so a modal request always wins over a waiting autofill request.
 */
export class PasskeyCeremony {
  private running: Running | undefined;

  /** True while a ceremony waits for the user. */
  get pending(): boolean {
    return this.running !== undefined;
  }

  /**
   * Runs a ceremony (`onWaiting` once the browser's request started). Failures are PlatformMfaErrors (`PASSKEY_UNSUPPORTED`, `PASSKEY_CANCELLED`,
   * `PASSKEY_CEREMONY_FAILED`); an aborted `conditional` request resolves undefined instead.
   */
  async get(
    options: PublicKeyRequestOptionsJson,
    mediation: PasskeyMediation = "modal",
    onWaiting?: () => void,
  ): Promise<PublicKeyCredential | undefined> {
    const credentials = globalThis.navigator?.credentials;
    if (!credentials || typeof globalThis.PublicKeyCredential === "undefined") {
      throw new PlatformMfaError("PASSKEY_UNSUPPORTED", "This browser has no passkeys");
    }
    await this.abort();
    const controller = new AbortController();
    const request: CredentialRequestOptions = {
      publicKey: toRequestOptions(options),
      signal: controller.signal,
    };
    if (mediation === "conditional") request.mediation = "conditional";
    const done = credentials.get(request);
    const running: Running = { controller, done: done.catch(() => undefined) };
    this.running = running;
    onWaiting?.();
    try {
      const credential = await done;
      if (!credential) throw new PlatformMfaError("PASSKEY_CEREMONY_FAILED", "No passkey was used");
      return credential as PublicKeyCredential;
    } catch (error) {
      if (error instanceof PlatformMfaError) throw error;
      const name = error instanceof Error ? error.name : "";
      if (mediation === "conditional" && (controller.signal.aborted || name === "AbortError"))
        return undefined;
      const code =
        name === "NotAllowedError" || name === "AbortError" ? "PASSKEY_CANCELLED" : "PASSKEY_CEREMONY_FAILED";
      const message = error instanceof Error ? error.message : "The passkey ceremony failed";
      throw new PlatformMfaError(code, message, 0, {}, error);
    } finally {
      if (this.running === running) this.running = undefined;
    }
  }

  /** Aborts the pending ceremony, if any, and waits until the browser let it go. */
  async abort(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    if (!running) return;
    running.controller.abort();
    await running.done;
  }
}
