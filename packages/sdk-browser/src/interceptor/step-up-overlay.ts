import { isPlatformMfaError, PlatformMfaError } from "../platform-mfa-error.js";
import type { AuthenticationResult, FactorType } from "../types.js";
import { OVERLAY_HOST_ID, OVERLAY_TEXT as T, overlayMarkup } from "./overlay-markup.js";
import type { StepUpChallenge } from "./step-up-challenge.js";
import { codeFactorText, factorOf, type OverlayAnswer, overlayAnswerOf } from "./step-up-factors.js";

/** Codes after which this challenge cannot be completed any more: the overlay closes and gives up. */
const ENDED =
  /^(MFA_SESSION_|MFA_TIMEOUT|MFA_FAILED|MFA_CANCELLED|ACCOUNT_LOCKED|MFA_ACCOUNT_LOCKED|AUTHENTICATION_BLOCKED)/;

/** A fresh code is sent this long after the last concurrent request joined (see `mfaSessionIds`). */
const JOIN_SETTLE_MS = 300;

/**
 * The built-in challenge UI: a modal overlay in a shadow root (host `#platform-mfa-step-up`) that
 * completes the step-up in the page with the challenge's Client. It asks by the factor's kind: OTT,
 * the code the server already sent (`verifyOtt`), "Send a new code" (`requestOttCode`); passkey:
 * `selectFactor("PASSKEY")` then `verifyPasskey()`; a plugin code factor (`TOTP`, `RECOVERY_CODE`:
 * kind `code` in the answer's `endpoints.factors`): `selectFactor(type)`, then the typed code to its
 * own URL (`verifyFactor`). Every other factor the flow allows is offered as a choice ("Email me a
 * code instead", "Use a passkey", "Use your authenticator app"...). The factors offered come from
 * `apiClient.status()` (`allowed`). A wrong code is shown with the attempts and the overlay stays;
 * a flow that ended (expired, locked) closes it and gives up. Cancel (or Escape) ends the server's
 * MFA session (`apiClient.cancel()`) and gives up. Resolves once a factor completed the step-up.
 * State for tests and styling: `data-factor` (`OTT`, `PASSKEY`, `TOTP`...) and `data-state` on the host.
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
  codeLabel: HTMLElement;
  status: HTMLElement;
  passkey: HTMLButtonElement;
  useCode: HTMLButtonElement;
  resend: HTMLButtonElement;
  cancel: HTMLButtonElement;
  /** The choice buttons of the plugin code factors (one per allowed factor not shown). */
  factors: HTMLElement;
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
    codeLabel: el<HTMLElement>("stepUpCodeLabel"),
    status: el<HTMLElement>("stepUpStatus"),
    passkey,
    useCode,
    resend,
    cancel: el<HTMLButtonElement>("stepUpCancel"),
    factors: el<HTMLElement>("stepUpFactors"),
    buttons: [el<HTMLButtonElement>("stepUpVerify"), resend, passkey, useCode],
  };
}

/** One open overlay: its elements, the factor shown, and the promise it settles. */
class StepUpOverlay {
  private readonly ui = createOverlayElements();
  private readonly client: StepUpChallenge["client"];
  private readonly focusBefore = document.activeElement;
  private factor: FactorType | undefined;
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
        if (!this.busy) this.factor = factorOf(s.state, s.currentFactor) ?? this.factor;
        this.render();
      })
      .catch(() => undefined);
  }

  /** How the overlay answers `type` (undefined: it cannot, so it is not offered). */
  private answerOf(type: FactorType | undefined): OverlayAnswer | undefined {
    return overlayAnswerOf(type, type === undefined ? undefined : this.client.apiClient.factorEndpoint(type));
  }

  private render(): void {
    const { form, passkey, useCode, resend, host, status } = this.ui;
    const answer = this.answerOf(this.factor);
    form.hidden = answer !== "mailed-code" && answer !== "code";
    resend.hidden = answer !== "mailed-code";
    passkey.hidden = this.factor !== "PASSKEY" && !this.allowed.includes("PASSKEY");
    useCode.hidden = this.factor === "OTT" || !this.allowed.includes("OTT");
    this.renderCodeEntry(answer);
    this.renderFactorChoices();
    host.dataset.factor = this.factor ?? "";
    host.dataset.state = this.busy ? "busy" : status.dataset.state === "error" ? "error" : "ready";
    for (const b of this.ui.buttons) b.disabled = this.busy;
    for (const b of this.ui.factors.querySelectorAll("button")) b.disabled = this.busy;
  }

  /** The code field's label and keyboard: the e-mailed code's, or the plugin factor's. */
  private renderCodeEntry(answer: OverlayAnswer | undefined): void {
    const { code, codeLabel } = this.ui;
    const text = answer === "code" && this.factor !== undefined ? codeFactorText(this.factor) : undefined;
    codeLabel.textContent = text?.label ?? T.codeLabel;
    code.inputMode = text?.inputMode ?? "numeric";
  }

  /** One choice button per allowed plugin code factor other than the one shown (rebuilt when they change). */
  private renderFactorChoices(): void {
    const choices = this.allowed.filter((t) => t !== this.factor && this.answerOf(t) === "code");
    const box = this.ui.factors;
    if (box.dataset.choices === choices.join(" ")) return;
    box.dataset.choices = choices.join(" ");
    box.replaceChildren(
      ...choices.map((type) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "link";
        button.dataset.factor = type;
        button.textContent = codeFactorText(type).use;
        button.addEventListener("click", () => this.step(() => this.useFactor(type)));
        return button;
      }),
    );
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
    if (!this.ui.form.hidden) {
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
    this.factor = factorOf(result.state, result.currentFactor) ?? this.factor;
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
      const factor = this.factor;
      void this.step(async () => {
        this.say(T.checking);
        const plugin = factor !== undefined && this.answerOf(factor) === "code";
        this.answered(
          plugin ? await this.client.verifyFactor(factor, value) : await this.client.verifyOtt(value),
        );
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

  /** Selects a plugin code factor (its challenge opens at once) and asks for its code. */
  private async useFactor(type: FactorType): Promise<void> {
    const answer = await this.client.selectFactor(type);
    this.factor = factorOf(answer.state, answer.currentFactor) ?? type;
    this.ui.code.value = "";
    this.say("");
    queueMicrotask(() => this.ui.code.focus());
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
