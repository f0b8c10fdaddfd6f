// `/js/platform-ott-request-page.js`: the OTT request-code page (`#ottRequestForm`,
// `#sendCodeButton`). `apiClient.requestOttCode()` sends the code, then the browser goes to the
// answer's next step (the code entry page). Without the SDK, or on anything unexpected, the form posts.
import {
  byId,
  type Failure,
  failurePageFor,
  follow,
  formAction,
  go,
  interceptSubmit,
  PageStatus,
  pageClient,
  runStep,
  TEXT,
  whenReady,
} from "./page-kit.js";

whenReady(() => {
  const form = byId("ottRequestForm", HTMLFormElement);
  if (!form) return;
  const action = formAction(form);
  const client = pageClient(
    action ? { ott: { codeGeneration: action }, api: { requestOttCode: action } } : {},
  );
  if (!client) return;
  const button = byId("sendCodeButton", HTMLButtonElement);
  let status: PageStatus | undefined;

  interceptSubmit(form, () => {
    status ??= new PageStatus(form);
    const shown = status;
    runStep({
      form,
      buttons: [button],
      status: shown,
      progress: TEXT.sending,
      async run() {
        return follow(client, await client.apiClient.requestOttCode(), shown);
      },
      failed(failure: Failure) {
        const ended = failurePageFor(client, failure);
        if (ended) go(ended);
        else shown.error(failure.message);
      },
    });
  });
});
