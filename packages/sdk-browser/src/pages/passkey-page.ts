// `/js/platform-passkey-page.js`: the passkey challenge page. `#authButton` (inside `#passkeyForm`)
// runs `client.verifyPasskey()`: assertion options bound to the MFA session, the browser's passkey
// ceremony, then the verification; the browser follows the answer (next factor or final redirect).
// A passkey cannot be sent by a plain form, so failures are shown in place (posting the form without
// an assertion would only spend an attempt); "Try another method" and `#cancelForm` stay plain.
import {
  byId,
  type Failure,
  failurePageFor,
  follow,
  formAction,
  go,
  PageStatus,
  pageClient,
  runStep,
  TEXT,
  whenReady,
  withAttempts,
} from "./page-kit.js";

const MESSAGES: Readonly<Record<string, string>> = {
  PASSKEY_CANCELLED: "The passkey request was cancelled or timed out. Try again, or use another method.",
  PASSKEY_UNSUPPORTED: "This browser cannot use passkeys. Use another method.",
  PASSKEY_CEREMONY_FAILED: "The passkey could not be used. Try again, or use another method.",
  MFA_FACTOR_VERIFICATION_FAILED: "The passkey could not be verified.",
};

whenReady(() => {
  const form = byId("passkeyForm", HTMLFormElement);
  const button = byId("authButton", HTMLButtonElement);
  if (!form || !button) return;
  const action = formAction(form);
  const client = pageClient(
    action ? { webauthn: { assertionVerify: action }, passkey: { loginProcessing: action } } : {},
  );
  let status: PageStatus | undefined;
  const statusLine = (): PageStatus => {
    status ??= new PageStatus(form);
    return status;
  };
  if (!client) {
    statusLine().error("Passkeys need the sign-in script, which did not load. Use another method.");
    return;
  }

  const start = (): void => {
    const shown = statusLine();
    runStep({
      form,
      buttons: [button],
      status: shown,
      progress: TEXT.passkey,
      onUnexpected: "show",
      async run() {
        return follow(client, await client.verifyPasskey(), shown);
      },
      failed(failure: Failure) {
        const ended = failurePageFor(client, failure);
        if (ended) {
          go(ended);
          return;
        }
        const text = MESSAGES[failure.code] ?? failure.message;
        shown.error(failure.code === "MFA_FACTOR_VERIFICATION_FAILED" ? withAttempts(text, failure) : text);
      },
    });
  };
  button.addEventListener("click", (event) => {
    // A custom page's submit button: no plain post of a form without an assertion.
    event.preventDefault();
    start();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    start();
  });
});
