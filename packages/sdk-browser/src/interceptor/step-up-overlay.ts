import { isPlatformMfaError, PlatformMfaError } from "../platform-mfa-error.js";
import type { AuthenticationResult } from "../types.js";
import { OVERLAY_HOST_ID, OVERLAY_TEXT as T, overlayMarkup } from "./overlay-markup.js";
import type { StepUpChallenge } from "./step-up-challenge.js";

type Factor = "OTT" | "PASSKEY";

/** Codes after which this challenge cannot be completed any more: the overlay closes and gives up. */
const ENDED =
  /^(MFA_SESSION_|MFA_TIMEOUT|MFA_FAILED|MFA_CANCELLED|ACCOUNT_LOCKED|MFA_ACCOUNT_LOCKED|AUTHENTICATION_BLOCKED)/;

/** A fresh code is sent this long after the last concurrent request joined (see `mfaSessionIds`). */
const JOIN_SETTLE_MS = 300;

/**
 * The built-in challenge UI: a modal overlay in a shadow root (host `#platform-mfa-step-up`) that
 * completes the step-up in the page with the challenge's Client. OTT: the code the server already
 * sent (`verifyOtt`), "Send a new code" (`requestOttCode`); passkey: `selectFactor("PASSKEY")` then
 * `verifyPasskey()`; "Email me a code instead" switches back. The factors offered come from
 * `apiClient.status()` (`allowed`). A wrong code is shown with the attempts and the overlay stays;
 * a flow that ended (expired, locked) closes it and gives up. Cancel (or Escape) ends the server's
 * MFA session (`apiClient.cancel()`) and gives up. Resolves once a factor completed the step-up.
 * State for tests and styling: `data-factor` (`OTT`, `PASSKEY`) and `data-state` on the host.
 */
export function showStepUpOverlay(challenge: StepUpChallenge): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    new StepUpOverlay(challenge, resolve, reject).open();
  });
}

/** The overlay's elements, looked up once in its shadow root. */
interface OverlayElements {
  host: HTMLDivElement;
  form: HTMLFormElement;
  code: HTMLInputElement;
  status: HTMLElement;
  passkey: HTMLButtonElement;
  useCode: HTMLButtonElement;
  resend: HTMLButtonElement;
  cancel: HTMLButtonElement;
  /** Disabled while a step runs. */
  buttons: HTMLButtonElement[];
}

/** Builds the host element and its shadow root, and finds the elements the overlay drives. */
function createOverlayElements(): OverlayElements {
  const host = document.createElement("div");
  host.id = OVERLAY_HOST_ID;
  const root = host.attachShadow({ mode: "open" });
  root.innerHTML = overlayMarkup();
  const el = <E extends HTMLElement>(id: string): E => root.getElementById(id) as E;
  const passkey = el<HTMLButtonElement>("stepUpPasskey");
  const useCode = el<HTMLButtonElement>("stepUpUseCode");
  const resend = el<HTMLButtonElement>("stepUpResend");
  return {
    host,
    form: el<HTMLFormElement>("stepUpOtt"),
    code: el<HTMLInputElement>("stepUpCode"),
    status: el<HTMLElement>("stepUpStatus"),
    passkey,
    useCode,
    resend,
    cancel: el<HTMLButtonElement>("stepUpCancel"),
    buttons: [el<HTMLButtonElement>("stepUpVerify"), resend, passkey, useCode],
  };
}

/** One open overlay: its elements, the factor shown, and the promise it settles. */
class StepUpOverlay {
  private readonly ui = createOverlayElements();
  private readonly client: StepUpChallenge["client"];
  private readonly focusBefore = document.activeElement;
  private factor: Factor | undefined;
  private allowed: string[];
  private busy = false;
  private closed = false;
  private fresh: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly challenge: StepUpChallenge,
    private readonly resolve: () => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.client = challenge.client;
    this.factor = factorOf(challenge.currentState);
    this.allowed = [this.factor ?? "OTT"];
  }

  /** Wires the controls, shows the overlay, focuses it and asks the server which factors it allows. */
  open(): void {
    this.listen();
    this.render();
    (document.body ?? document.documentElement).append(this.ui.host);
    (this.factor === "PASSKEY" ? this.ui.passkey : this.ui.code).focus();
    this.client.apiClient
      .status()
      .then((s) => {
        if (this.closed) return;
        if (Array.isArray(s.allowed)) this.allowed = s.allowed.map(String);
        if (!this.busy) this.factor = factorOf(s.state) ?? this.factor;
        this.render();
      })
      .catch(() => undefined);
  }

  private render(): void {
    const { form, passkey, useCode, host, status } = this.ui;
    form.hidden = this.factor !== "OTT";
    passkey.hidden = this.factor !== "PASSKEY" && !this.allowed.includes("PASSKEY");
    useCode.hidden = this.factor === "OTT" || !this.allowed.includes("OTT");
    host.dataset.factor = this.factor ?? "";
    host.dataset.state = this.busy ? "busy" : status.dataset.state === "error" ? "error" : "ready";
    for (const b of this.ui.buttons) b.disabled = this.busy;
  }

  private say(text: string, state: "progress" | "error" = "progress"): void {
    this.ui.status.textContent = text;
    this.ui.status.dataset.state = state;
    this.render();
  }

  private close(): void {
    this.closed = true;
    clearTimeout(this.fresh);
    this.challenge.onJoin = undefined;
    this.ui.host.remove();
    if (this.focusBefore instanceof HTMLElement) this.focusBefore.focus();
  }

  private failed(error: unknown): void {
    const e = isPlatformMfaError(error) ? error : undefined;
    if (e && ENDED.test(e.code)) {
      this.close();
      this.reject(e);
      return;
    }
    const attempts =
      e?.attemptsMade !== undefined && e.maxAttempts !== undefined
        ? ` Attempts: ${e.attemptsMade} of ${e.maxAttempts}.`
        : "";
    this.say(
      e?.code === "PASSKEY_CANCELLED" ? T.passkeyCancelled : `${e?.message ?? T.failed}${attempts}`,
      "error",
    );
    if (this.factor === "OTT") {
      this.ui.code.value = "";
      this.ui.code.focus();
    }
  }

  /** Runs one server step unless another runs or the overlay closed; a failure is shown. */
  private async step(run: () => Promise<void>): Promise<void> {
    if (this.busy || this.closed) return;
    this.busy = true;
    this.render();
    try {
      await run();
    } catch (error) {
      this.busy = false;
      if (!this.closed) this.failed(error);
    } finally {
      this.busy = false;
      if (!this.closed) this.render();
    }
  }

  private answered(result: AuthenticationResult): void {
    if (result.success === true) {
      this.close();
      this.resolve();
      return;
    }
    // Another factor is due (a flow needing more than one): show it.
    this.factor = factorOf(result.state) ?? this.factor;
    this.say("");
  }

  private cancel(): void {
    if (this.closed) return;
    this.close();
    const given = new PlatformMfaError("STEP_UP_CANCELLED", "The step-up was cancelled");
    void this.client.abortPasskeyCeremony();
    this.client.apiClient
      .cancel()
      .catch(() => undefined)
      .finally(() => this.reject(given));
  }

  private listen(): void {
    const { form, code, resend, passkey, useCode, host } = this.ui;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const value = code.value.trim();
      if (value === "") return;
      void this.step(async () => {
        this.say(T.checking);
        this.answered(await this.client.verifyOtt(value));
      });
    });
    resend.addEventListener("click", () =>
      this.step(async () => {
        await this.client.apiClient.requestOttCode();
        this.say(T.sent);
      }),
    );
    passkey.addEventListener("click", () => this.step(() => this.usePasskey()));
    useCode.addEventListener("click", () => this.step(() => this.useCode()));
    this.ui.cancel.addEventListener("click", () => this.cancel());
    host.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.cancel();
    });
    this.challenge.onJoin = () => this.joined();
  }

  private async usePasskey(): Promise<void> {
    if (this.factor !== "PASSKEY") {
      await this.client.selectFactor("PASSKEY");
      this.factor = "PASSKEY";
    }
    this.say(T.waitingPasskey);
    this.answered(await this.client.verifyPasskey());
  }

  private async useCode(): Promise<void> {
    await this.client.selectFactor("OTT");
    this.factor = "OTT";
    this.say(T.sent);
    queueMicrotask(() => this.ui.code.focus());
  }

  /**
   * Concurrent requests each opened a server challenge (each may have mailed a code); once they
   * settle, a fresh code for the one the binding cookie names makes "the latest code" the valid one.
   */
  private joined(): void {
    if (this.challenge.mfaSessionIds.length < 2 || this.factor !== "OTT") return;
    clearTimeout(this.fresh);
    this.fresh = setTimeout(
      () =>
        void this.step(async () => {
          await this.client.apiClient.requestOttCode();
          this.say(T.severalSent);
        }),
      JOIN_SETTLE_MS,
    );
  }
}

/** The factor a state waits for: a code, a passkey, or none chosen yet (the user picks). */
function factorOf(state: unknown): Factor | undefined {
  if (state === "OTT_CHALLENGE" || state === "AWAITING_CHALLENGE_INITIATION") return "OTT";
  if (state === "PASSKEY_CHALLENGE") return "PASSKEY";
  return undefined;
}
