// `/js/platform-login-page.js`: the MFA login page (`#loginForm`, `#loginButton`). The primary sign-in
// goes through the SDK (`apiClient.loginForm`, or `apiClient.login` for a REST primary when
// `data-mfa-sdk-required="true"`), then the browser follows the answer: the next MFA step, or the
// final redirect. Without the SDK (or when something unexpected happens) the form posts as usual.
// Passkeys: with a field `autocomplete="username webauthn"` and a browser that offers conditional
// mediation, a usernameless passkey request waits for autofill (state in `data-conditional`); it is
// aborted before a form submit and before the modal ceremony of an optional `#passkeySignInButton`,
// and restarted when that ceremony is cancelled or fails.
import type { Client } from "../client.js";
import { PasskeyAutofill } from "./passkey-autofill.js";
import {
  byId,
  type Failure,
  failureOf,
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
  PASSKEY_CANCELLED: "The passkey request was cancelled or timed out. Try again, or use your password.",
  PASSKEY_UNSUPPORTED: "This browser cannot use passkeys. Use your password.",
  WEBAUTHN_VERIFICATION_FAILED: "That passkey could not be verified.",
};

/** What the login page's handlers share once the page is wired. */
interface LoginPage {
  form: HTMLFormElement;
  /** A REST primary (`data-mfa-sdk-required="true"`): there is no plain form to fall back on. */
  rest: boolean;
  client: Client;
  buttons: (HTMLButtonElement | undefined)[];
  /** The status line, created on first use. */
  statusLine(): PageStatus;
  /** Shows a failure's message (known codes in plain words). */
  explain(failure: Failure | undefined): void;
  autofill: PasskeyAutofill;
}

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
  const passkeyButton = byId("passkeySignInButton", HTMLButtonElement);
  let status: PageStatus | undefined;
  const statusLine = (): PageStatus => {
    status ??= new PageStatus(form);
    return status;
  };
  const explain = (failure: Failure | undefined): void => {
    statusLine().error((failure && MESSAGES[failure.code]) ?? failure?.message ?? TEXT.failed);
  };
  const autofill = new PasskeyAutofill(
    client,
    async (result) => {
      if (!(await follow(client, result, statusLine()))) void autofill.start();
    },
    (error) => {
      explain(failureOf(error));
      void autofill.start();
    },
  );
  const page: LoginPage = {
    form,
    rest,
    client,
    buttons: [button, passkeyButton],
    statusLine,
    explain,
    autofill,
  };

  interceptSubmit(form, () => signInWithPassword(page));
  passkeyButton?.addEventListener("click", (event) => {
    event.preventDefault();
    signInWithPasskey(page);
  });

  void autofill.start();
});

/** The form's submit: the primary sign-in through the SDK, then the answer is followed. */
function signInWithPassword({ form, rest, client, buttons, statusLine, autofill }: LoginPage): void {
  const shown = statusLine();
  runStep({
    form,
    buttons,
    status: shown,
    progress: TEXT.signingIn,
    // A REST primary has no plain form to fall back on: say what happened instead.
    onUnexpected: rest ? "show" : "submit",
    async run() {
      await autofill.stop();
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
      void autofill.start();
    },
  });
}

/** `#passkeySignInButton`: the modal passkey ceremony (the username, when typed, narrows it). */
function signInWithPasskey({ form, client, buttons, statusLine, explain, autofill }: LoginPage): void {
  const shown = statusLine();
  runStep({
    form,
    buttons,
    status: shown,
    progress: TEXT.passkey,
    // A passkey cannot be posted by the plain form: failures are shown.
    onUnexpected: "show",
    async run() {
      await autofill.stop();
      const username = fieldValue(form, "username").trim();
      const result = await client.signInWithPasskey(username ? { username } : {});
      return result ? follow(client, result, shown) : false;
    },
    failed(failure: Failure) {
      explain(failure);
      void autofill.start();
    },
  });
}
