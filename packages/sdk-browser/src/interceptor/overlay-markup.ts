// The built-in challenge overlay's markup and style, inside its own shadow root: the page's CSS does
// not reach it and its CSS does not leak out. Ids are scoped to the shadow root.

/** The id of the overlay's host element (`document.getElementById`, and test selectors). */
export const OVERLAY_HOST_ID = "platform-mfa-step-up";

/** The texts of the overlay. */
export const OVERLAY_TEXT = {
  title: "Confirm it's you",
  intro: "This needs a recent second factor. Your page stays as it is.",
  codeLabel: "Enter the code we sent you",
  verify: "Verify",
  resend: "Send a new code",
  passkey: "Use a passkey",
  useCode: "Email me a code instead",
  cancel: "Cancel",
  checking: "Checking…",
  sent: "A new code was sent.",
  severalSent: "Several requests asked at once, so a fresh code was sent: use the most recent one.",
  waitingPasskey: "Waiting for your passkey…",
  passkeyCancelled: "The passkey request was cancelled or timed out. Try again, or use a code.",
  failed: "That did not work. Please try again.",
} as const;

const STYLE = `:host{all:initial}
.backdrop{position:fixed;inset:0;z-index:2147483647;display:flex;align-items:center;justify-content:center;background:rgba(15,23,42,.55);font:16px/1.4 system-ui,sans-serif;color:#0f172a}
.dialog{box-sizing:border-box;width:min(92vw,24rem);padding:1.5rem;border-radius:12px;background:#fff;box-shadow:0 20px 50px rgba(0,0,0,.3);display:grid;gap:.75rem}
h2{margin:0;font-size:1.25rem}p{margin:0}
form{display:grid;gap:.5rem}[hidden]{display:none!important}
input{font:inherit;padding:.5rem .6rem;border:1px solid #94a3b8;border-radius:8px;letter-spacing:.2em}
button{font:inherit;padding:.5rem .9rem;border-radius:8px;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer}
button.link{background:none;border:0;color:#1d4ed8;padding:.25rem 0;text-align:left}
button:disabled{opacity:.6;cursor:progress}
.row{display:flex;gap:.75rem;align-items:center;flex-wrap:wrap}
#stepUpStatus:empty,#stepUpFactors:empty{display:none}#stepUpStatus[data-state=error]{color:#b91c1c}`;

/** The overlay's shadow-root content (static: every dynamic text is set with textContent). */
export function overlayMarkup(): string {
  const t = OVERLAY_TEXT;
  return `<style>${STYLE}</style><div class="backdrop" part="backdrop">
<div class="dialog" role="dialog" aria-modal="true" aria-labelledby="stepUpTitle" aria-describedby="stepUpIntro">
<h2 id="stepUpTitle">${t.title}</h2><p id="stepUpIntro">${t.intro}</p>
<form id="stepUpOtt" hidden><label id="stepUpCodeLabel" for="stepUpCode">${t.codeLabel}</label>
<input id="stepUpCode" name="token" autocomplete="one-time-code" inputmode="numeric" required>
<div class="row"><button id="stepUpVerify" type="submit">${t.verify}</button>
<button id="stepUpResend" type="button" class="link">${t.resend}</button></div></form>
<button id="stepUpPasskey" type="button" hidden>${t.passkey}</button>
<button id="stepUpUseCode" type="button" class="link" hidden>${t.useCode}</button>
<div id="stepUpFactors" class="row"></div>
<p id="stepUpStatus" role="status" aria-live="polite"></p>
<button id="stepUpCancel" type="button" class="link">${t.cancel}</button></div></div>`;
}
