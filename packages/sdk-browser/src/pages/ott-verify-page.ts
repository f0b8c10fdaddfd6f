// `/js/platform-ott-verify-page.js`: the OTT code entry page. `#ottVerifyForm` / `#verifyButton`
// verify the code with `client.verifyOtt(code)` and follow the answer (next factor or final
// redirect); a wrong code is shown in place with the attempts made and allowed. `#ottResendForm` /
// `#resendButton` send a new code with `apiClient.requestOttCode()` without leaving the page. A flow
// that ended (locked, expired, timed out) goes to the failure page. Without the SDK, or on anything
// unexpected, the forms post as usual.
import {
  byId,
  type Failure,
  failurePageFor,
  fieldValue,
  follow,
  formAction,
  go,
  interceptSubmit,
  PageStatus,
  pageClient,
  runStep,
  TEXT,
  whenReady,
  withAttempts,
} from "./page-kit.js";

whenReady(() => {
  const verifyForm = byId("ottVerifyForm", HTMLFormElement);
  if (!verifyForm) return;
  const resendForm = byId("ottResendForm", HTMLFormElement);
  const verifyUrl = formAction(verifyForm);
  const resendUrl = resendForm ? formAction(resendForm) : undefined;
  const ott: Record<string, string> = {};
  if (verifyUrl) ott.loginProcessing = verifyUrl;
  if (resendUrl) ott.codeGeneration = resendUrl;
  const client = pageClient(resendUrl ? { ott, api: { requestOttCode: resendUrl } } : { ott });
  if (!client) return;
  const verifyButton = byId("verifyButton", HTMLButtonElement);
  const resendButton = byId("resendButton", HTMLButtonElement);
  const buttons = [verifyButton, resendButton];
  const token = verifyForm.elements.namedItem("token");
  const attempts = document.getElementById("ottAttempts");
  let status: PageStatus | undefined;
  const statusLine = (): PageStatus => {
    status ??= new PageStatus(verifyForm);
    return status;
  };
  const resetToken = (): void => {
    if (!(token instanceof HTMLInputElement)) return;
    token.value = "";
    token.focus();
  };
  const ended = (failure: Failure): boolean => {
    const page = failurePageFor(client, failure);
    if (page) go(page);
    return page !== undefined;
  };

  interceptSubmit(verifyForm, () => {
    const shown = statusLine();
    runStep({
      form: verifyForm,
      buttons,
      status: shown,
      progress: TEXT.verifying,
      async run() {
        return follow(client, await client.verifyOtt(fieldValue(verifyForm, "token").trim()), shown);
      },
      failed(failure: Failure) {
        if (ended(failure)) return;
        const made = failure.body.attemptsMade;
        const max = failure.body.maxAttempts;
        if (attempts && typeof made === "number" && typeof max === "number") {
          attempts.textContent = `Attempts: ${made} of ${max}`;
        }
        shown.error(withAttempts(failure.message.replace(/\.?$/, "."), failure));
        resetToken();
      },
    });
  });

  if (!resendForm) return;
  interceptSubmit(resendForm, () => {
    const shown = statusLine();
    runStep({
      form: resendForm,
      buttons,
      status: shown,
      progress: TEXT.sending,
      async run() {
        const result = await client.apiClient.requestOttCode();
        const left = await follow(client, result, shown, location.pathname);
        if (!left) {
          shown.show(TEXT.sent);
          resetToken();
        }
        return left;
      },
      failed(failure: Failure) {
        if (!ended(failure)) shown.error(failure.message);
      },
    });
  });
});
