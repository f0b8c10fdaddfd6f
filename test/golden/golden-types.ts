/**
 * The shapes of the golden request lists (data, under `requests/`) and of the recorded answers
 * (`answers/*.json`). A group runs against one fresh demo; its scenarios run in order on that demo; a
 * scenario's steps run in order and share its actors (cookie jars) and variables.
 */

/** One HTTP request, sent byte for byte as written (the path is not normalised by the client). */
export interface GoldenRequest {
  method: string;
  /** Raw request target: `//`, `%2F`, `/./` and `/../` reach the server as written. */
  path: string;
  /** Extra headers; `{{var}}` is replaced by a variable of the scenario. */
  headers?: Record<string, string>;
  /** A JSON body (content-type application/json unless `headers` says otherwise). */
  json?: unknown;
  /** A urlencoded form body. */
  form?: Record<string, string>;
  /** A raw text body, sent with the content-type of `headers` (application/json when absent). */
  text?: string;
  /** A body of this many bytes of `x` (the oversized-body case), sent as application/json. */
  bytes?: number;
  /** Sends the actor's bearer access token (`Authorization: Bearer {{<actor>.access}}`). */
  bearer?: boolean;
}

/** Where a captured variable comes from in an answer. */
export type Capture =
  /** A JSON body field by `/`-separated path (`accessToken`, `0/id`, `endpoints/verifyOtt`). */
  | `json:${string}`
  /** A response header (lower case). */
  | `header:${string}`
  /** The CSRF token of an HTML page (its `_csrf` meta tag or hidden input). */
  | "html:csrf";

/** A request step: its answer is recorded. */
export interface RequestStep {
  name: string;
  /** Whose cookie jar and bearer token (default `browser`). */
  actor?: string;
  request: GoldenRequest;
  /** Variables to read from the answer (`{{name}}` in later steps). */
  capture?: Record<string, Capture>;
}

/** Reads the next undelivered outbox line for `username` (codes, magic links, reset links); recorded. */
export interface OutboxStep {
  name: string;
  outbox: { username: string; channel?: string };
  /** Variables from the line: `token`, `link`. */
  capture?: Record<string, "token" | "link">;
}

/** Moves the demo's ManualClock forward (ISO-8601 duration such as `PT6M`); recorded as a marker. */
export interface ClockStep {
  name: string;
  advanceClock: string;
}

/**
 * A WebAuthn ceremony with the scenario's software authenticator (one device per scenario, origin
 * `http://localhost:<port>`): `register` asks `POST /webauthn/register/options` and posts the new
 * credential to `POST /webauthn/register`; `sign-in` asks `POST /webauthn/authenticate/options` and
 * posts the assertion to `POST /login/webauthn`. Both requests are recorded; the generated
 * credential JSON (signatures are random) is recorded as a placeholder.
 */
export interface PasskeyStep {
  name: string;
  passkey: "register" | "sign-in";
  actor?: string;
  /** Headers of both requests (the CSRF token of a session). */
  headers?: Record<string, string>;
}

/** One step of a scenario. */
export type GoldenStep = RequestStep | OutboxStep | ClockStep | PasskeyStep;

/**
 * Actors signed in before the steps run (their requests are not recorded):
 * `session:<user>` signs in through the form login page (and the mailed code when MFA asks for one),
 * `bearer:<user>` through `POST /api/login` (and the API's MFA flow); `anonymous` is an empty jar.
 * A signed-in actor `a` provides `{{a.csrf}}` (session) or `{{a.access}}` and `{{a.refresh}}` (bearer).
 */
export type Given = "anonymous" | `session:${string}` | `bearer:${string}`;

/** A named sequence of steps. */
export interface GoldenScenario {
  name: string;
  /** `false`: an API client that keeps no cookies (every actor's jar stays empty). Default true. */
  cookies?: false;
  given?: Record<string, Given>;
  steps: GoldenStep[];
}

/** One endpoint group: one answers file, one fresh demo. */
export interface GoldenGroup {
  /** File name under `answers/` (kebab-case). */
  name: string;
  description: string;
  /** Environment the demo starts with (as `pnpm start` would read it). */
  env?: Record<string, string>;
  scenarios: GoldenScenario[];
}

/** A recorded answer: status, the headers that matter, the normalised body. */
export interface RecordedAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body?: unknown;
}

/** One recorded step of an answers file. */
export interface RecordedStep {
  step: string;
  request?: Record<string, unknown>;
  answer?: RecordedAnswer;
  outbox?: Record<string, unknown>;
  clock?: string;
}

/** One recorded scenario. */
export interface RecordedScenario {
  scenario: string;
  cookies?: false;
  given?: Record<string, Given>;
  steps: RecordedStep[];
}

/** The content of one answers file. */
export interface RecordedGroup {
  group: string;
  description: string;
  env?: Record<string, string>;
  scenarios: RecordedScenario[];
}
