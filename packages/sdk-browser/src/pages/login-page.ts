// `/js/platform-login-page.js`: the MFA login page (`#loginForm`, `#loginButton`). The primary sign-in
// goes through the SDK (`apiClient.loginForm`, or `apiClient.login` for a REST primary when
// `data-mfa-sdk-required="true"`), then the browser follows the answer: the next MFA step, or the
// final redirect. Without the SDK (or when something unexpected happens) the form posts as usual.
import {
  byId,
  type Failure,
  fieldValue,
  follow,
  formAction,
  interceptSubmit,
  PageStatus,
  pageClient,
  pageData,
  runStep,
  TEXT,
  whenReady,
} from "./page-kit.js";

const MESSAGES: Readonly<Record<string, string>> = {
  BAD_CREDENTIALS: "Invalid username or password.",
  ACCOUNT_LOCKED: "This account is temporarily locked. Try again later.",
  TOO_MANY_ATTEMPTS: "Too many attempts. Wait a moment, then try again.",
  AUTHENTICATION_BLOCKED: "This sign-in was blocked.",
};

whenReady(() => {
  const form = byId("loginForm", HTMLFormElement);
  if (!form) return;
  const rest = pageData("mfaSdkRequired") === "true";
  const action = formAction(form);
  const urls = action
    ? { primary: rest ? { restLoginProcessing: action } : { formLoginProcessing: action } }
    : {};
  const client = pageClient(urls);
  if (!client) return;
  const button = byId("loginButton", HTMLButtonElement);
  let status: PageStatus | undefined;

  interceptSubmit(form, () => {
    status ??= new PageStatus(form);
    const shown = status;
    runStep({
      form,
      buttons: [button],
      status: shown,
      progress: TEXT.signingIn,
      // A REST primary has no plain form to fall back on: say what happened instead.
      onUnexpected: rest ? "show" : "submit",
      async run() {
        const username = fieldValue(form, "username");
        const password = fieldValue(form, "password");
        const result = rest
          ? await client.apiClient.login(username, password)
          : await client.apiClient.loginForm(username, password);
        return follow(client, result, shown);
      },
      failed(failure: Failure) {
        shown.error(MESSAGES[failure.code] ?? failure.message);
        const password = form.elements.namedItem("password");
        if (password instanceof HTMLInputElement && failure.code === "BAD_CREDENTIALS") {
          password.value = "";
          password.focus();
        }
      },
    });
  });
});
