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
    const { client } = challenge;
    const host = document.createElement("div");
    host.id = OVERLAY_HOST_ID;
    const root = host.attachShadow({ mode: "open" });
    root.innerHTML = overlayMarkup();
    const el = <E extends HTMLElement>(id: string): E => root.getElementById(id) as E;
    const form = el<HTMLFormElement>("stepUpOtt");
    const code = el<HTMLInputElement>("stepUpCode");
    const status = el<HTMLElement>("stepUpStatus");
    const passkey = el<HTMLButtonElement>("stepUpPasskey");
    const useCode = el<HTMLButtonElement>("stepUpUseCode");
    const resend = el<HTMLButtonElement>("stepUpResend");
    const buttons = [el<HTMLButtonElement>("stepUpVerify"), resend, passkey, useCode];
    const focusBefore = document.activeElement;
    let factor = factorOf(challenge.currentState);
    let allowed: string[] = [factor ?? "OTT"];
    let busy = false;
    let closed = false;
    let fresh: ReturnType<typeof setTimeout> | undefined;

    const render = (): void => {
      form.hidden = factor !== "OTT";
      passkey.hidden = factor !== "PASSKEY" && !allowed.includes("PASSKEY");
      useCode.hidden = factor === "OTT" || !allowed.includes("OTT");
      host.dataset.factor = factor ?? "";
      host.dataset.state = busy ? "busy" : status.dataset.state === "error" ? "error" : "ready";
      for (const b of buttons) b.disabled = busy;
    };
    const say = (text: string, state: "progress" | "error" = "progress"): void => {
      status.textContent = text;
      status.dataset.state = state;
      render();
    };
    const close = (): void => {
      closed = true;
      clearTimeout(fresh);
      challenge.onJoin = undefined;
      host.remove();
      if (focusBefore instanceof HTMLElement) focusBefore.focus();
    };
    const failed = (error: unknown): void => {
      const e = isPlatformMfaError(error) ? error : undefined;
      if (e && ENDED.test(e.code)) {
        close();
        reject(e);
        return;
      }
      const attempts =
        e?.attemptsMade !== undefined && e.maxAttempts !== undefined
          ? ` Attempts: ${e.attemptsMade} of ${e.maxAttempts}.`
          : "";
      say(
        e?.code === "PASSKEY_CANCELLED" ? T.passkeyCancelled : `${e?.message ?? T.failed}${attempts}`,
        "error",
      );
      if (factor === "OTT") {
        code.value = "";
        code.focus();
      }
    };
    const step = async (run: () => Promise<void>): Promise<void> => {
      if (busy || closed) return;
      busy = true;
      render();
      try {
        await run();
      } catch (error) {
        busy = false;
        if (!closed) failed(error);
      } finally {
        busy = false;
        if (!closed) render();
      }
    };
    const answered = (result: AuthenticationResult): void => {
      if (result.success === true) {
        close();
        resolve();
        return;
      }
      // Another factor is due (a flow needing more than one): show it.
      factor = factorOf(result.state) ?? factor;
      say("");
    };
    const cancel = (): void => {
      if (closed) return;
      close();
      const given = new PlatformMfaError("STEP_UP_CANCELLED", "The step-up was cancelled");
      void client.abortPasskeyCeremony();
      client.apiClient
        .cancel()
        .catch(() => undefined)
        .finally(() => reject(given));
    };

    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const value = code.value.trim();
      if (value === "") return;
      void step(async () => {
        say(T.checking);
        answered(await client.verifyOtt(value));
      });
    });
    resend.addEventListener("click", () =>
      step(async () => {
        await client.apiClient.requestOttCode();
        say(T.sent);
      }),
    );
    passkey.addEventListener("click", () =>
      step(async () => {
        if (factor !== "PASSKEY") {
          await client.selectFactor("PASSKEY");
          factor = "PASSKEY";
        }
        say(T.waitingPasskey);
        answered(await client.verifyPasskey());
      }),
    );
    useCode.addEventListener("click", () =>
      step(async () => {
        await client.selectFactor("OTT");
        factor = "OTT";
        say(T.sent);
        queueMicrotask(() => code.focus());
      }),
    );
    el<HTMLButtonElement>("stepUpCancel").addEventListener("click", cancel);
    host.addEventListener("keydown", (event) => {
      if (event.key === "Escape") cancel();
    });
    // Concurrent requests each opened a server challenge (each may have mailed a code); once they
    // settle, a fresh code for the one the binding cookie names makes "the latest code" the valid one.
    challenge.onJoin = () => {
      if (challenge.mfaSessionIds.length < 2 || factor !== "OTT") return;
      clearTimeout(fresh);
      fresh = setTimeout(
        () =>
          void step(async () => {
            await client.apiClient.requestOttCode();
            say(T.severalSent);
          }),
        JOIN_SETTLE_MS,
      );
    };

    render();
    (document.body ?? document.documentElement).append(host);
    (factor === "PASSKEY" ? passkey : code).focus();
    client.apiClient
      .status()
      .then((s) => {
        if (closed) return;
        if (Array.isArray(s.allowed)) allowed = s.allowed.map(String);
        if (!busy) factor = factorOf(s.state) ?? factor;
        render();
      })
      .catch(() => undefined);
  });
}

/** The factor a state waits for: a code, a passkey, or none chosen yet (the user picks). */
function factorOf(state: unknown): Factor | undefined {
  if (state === "OTT_CHALLENGE" || state === "AWAITING_CHALLENGE_INITIATION") return "OTT";
  if (state === "PASSKEY_CHALLENGE") return "PASSKEY";
  return undefined;
}
