// Passkey autofill (conditional mediation) for the login page: a usernameless passkey request waits
// in the background while the page shows its form; the browser offers the user's passkeys in the
// username field's autofill. It is aborted before a modal ceremony or a form submit.
import type { Client } from "../client.js";
import type { AuthenticationResult } from "../types.js";
import { setPageData } from "./page-kit.js";

/** The fields that ask for passkey autofill (`autocomplete="username webauthn"`). */
export const AUTOFILL_FIELD = 'input[autocomplete~="webauthn"]';

/** The state the page shows in `#platform-page-config[data-conditional]` (tests and styling read it). */
export type AutofillState = "unavailable" | "pending" | "aborted" | "done" | "error";

/**
 * The autofill request of one page: `start()` (again after an abort or a cancelled modal ceremony)
 * when the page has an autofill field and the browser offers conditional mediation; `stop()` aborts
 * it and waits until the browser let it go. A passkey the user picks is signed in with
 * (`client.signInWithPasskey({ mediation: "conditional" })`) and the answer handed to `answered`.
 */
export class PasskeyAutofill {
  private running = false;

  constructor(
    private readonly client: Client,
    private readonly answered: (result: AuthenticationResult) => Promise<void>,
    private readonly failed: (error: unknown) => void,
  ) {}

  /** Starts the background request, unless one runs or the page or browser cannot autofill passkeys. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      if (!document.querySelector(AUTOFILL_FIELD) || !(await this.client.conditionalMediationAvailable())) {
        this.state("unavailable");
        return;
      }
      const result = await this.client.signInWithPasskey({
        mediation: "conditional",
        onWaiting: () => this.state("pending"),
      });
      this.running = false;
      if (!result) {
        this.state("aborted");
        return;
      }
      this.state("done");
      await this.answered(result);
    } catch (error) {
      this.state("error");
      this.failed(error);
    } finally {
      this.running = false;
    }
  }

  /** Aborts the waiting request (before a modal ceremony or a form submit). */
  stop(): Promise<void> {
    return this.client.abortPasskeyCeremony();
  }

  private state(value: AutofillState): void {
    setPageData("conditional", value);
  }
}
