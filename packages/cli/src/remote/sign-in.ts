import { CliFailure, type CliIo } from "../command-line/cli-command.js";
import { codeOf, credentialsFrom, failureOf, send } from "./admin-client.js";
import type { ServerCredentials } from "./credentials-file.js";
import type { ServerAnswer } from "./read-server-answer.js";
import { sameOriginUrl } from "./server-path.js";

/** The MFA part of a "MFA required" answer of a JSON (REST-primary) sign-in. */
interface MfaRequired {
  mfaSessionId: string;
  mfaBinding: string;
  endpoints: { verifyOtt?: string; generateCode?: string };
}

/** Most codes asked for before giving up (the server's own attempt limit usually ends it first). */
const MAX_CODE_PROMPTS = 5;

/**
 * Signs in to a server with the JSON API alone: `POST /api/login` with the password; when the
 * account needs a second factor, the server mails a code and answers "MFA required" with the flow's
 * id, a binding secret and the endpoints; the code typed in the terminal is sent with the
 * `X-MFA-Session-Id` and `X-MFA-Binding` headers until the server answers with tokens. No HTML,
 * no cookies, no CSRF token (the sign-in chain is stateless). The endpoints an answer names are
 * followed only when they are paths on the same server (SERVER_PATH_REFUSED before any code is
 * asked for), and nothing the server says reaches the terminal unstripped (`send`).
 */
export async function signIn(
  io: CliIo,
  url: string,
  username: string,
  password: string,
  fetchImpl: typeof fetch = fetch,
  now: () => number = Date.now,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<ServerCredentials> {
  io.err(`Signing in to ${url} as ${username} ...`);
  const first = await send(fetchImpl, url, "POST", "/api/login", { username, password });
  if (isTokenAnswer(first)) return credentialsFrom(first, username, now());
  if (first.status === 202) return waitForReview(io, url, username, first, fetchImpl, now, wait);
  const mfa = mfaRequired(first);
  if (!mfa) throw failureOf(first);
  const verify = mfa.endpoints.verifyOtt;
  if (!verify) {
    throw new CliFailure(
      "The account needs a second factor this command cannot enter (only mailed codes are supported)",
      "MFA_FACTOR_UNSUPPORTED",
    );
  }
  sameOriginUrl(url, verify);
  const headers = { "x-mfa-session-id": mfa.mfaSessionId, "x-mfa-binding": mfa.mfaBinding };
  io.err("A sign-in code was sent to you (in the demo: .platform/outbox.jsonl).");
  for (let attempt = 1; attempt <= MAX_CODE_PROMPTS; attempt++) {
    const code = (await io.readLine("Code: "))?.trim();
    if (code === undefined) throw new CliFailure("No code entered", "MFA_CANCELLED");
    if (code === "") continue;
    const answer = await send(fetchImpl, url, "POST", verify, { token: code }, undefined, headers);
    if (isTokenAnswer(answer)) return credentialsFrom(answer, username, now());
    if (answer.status === 401 && codeOf(answer) === "MFA_FACTOR_VERIFICATION_FAILED") {
      io.err(`Wrong code${attemptsOf(answer)}; try again.`);
      continue;
    }
    throw failureOf(answer);
  }
  throw new CliFailure("Too many wrong codes", "MFA_FACTOR_VERIFICATION_FAILED");
}

/** How often a held sign-in is polled, and for how long at most (the server expires it sooner). */
const REVIEW_POLL_MS = 2_000;
const REVIEW_MAX_WAIT_MS = 35 * 60_000;

/**
 * A sign-in held for an administrator's review (202 ESCALATED): polls the answer's `statusUrl` with
 * the `X-MFA-Binding` it gave, printing progress, until an administrator approves (tokens) or
 * rejects (the server's refusal), or the wait ends.
 */
async function waitForReview(
  io: CliIo,
  url: string,
  username: string,
  held: ServerAnswer,
  fetchImpl: typeof fetch,
  now: () => number,
  wait: (ms: number) => Promise<void>,
): Promise<ServerCredentials> {
  const b = held.body as { statusUrl?: unknown; mfaBinding?: unknown } | undefined;
  if (typeof b?.statusUrl !== "string" || typeof b.mfaBinding !== "string") throw failureOf(held);
  sameOriginUrl(url, b.statusUrl);
  io.err("Your sign-in is held for review by an administrator; waiting (Ctrl-C to stop) ...");
  const headers = { "x-mfa-binding": b.mfaBinding };
  const deadline = now() + REVIEW_MAX_WAIT_MS;
  while (now() < deadline) {
    await wait(REVIEW_POLL_MS);
    const answer = await send(fetchImpl, url, "GET", b.statusUrl, undefined, undefined, headers);
    if (isTokenAnswer(answer)) {
      io.err("Approved.");
      return credentialsFrom(answer, username, now());
    }
    const status = (answer.body as { status?: unknown } | undefined)?.status;
    if (answer.status !== 200 || status !== "PENDING") throw failureOf(answer);
  }
  throw new CliFailure("Nobody reviewed the sign-in in time", "ESCALATION_TIMEOUT");
}

/** ` (2/5 attempts)` when the server counted them in whole numbers, else nothing. */
function attemptsOf(answer: ServerAnswer): string {
  const { attemptsMade, maxAttempts } = (answer.body ?? {}) as Record<string, unknown>;
  const count = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
  return count(attemptsMade) && count(maxAttempts) && maxAttempts > 0
    ? ` (${attemptsMade}/${maxAttempts} attempts)`
    : "";
}

function isTokenAnswer(answer: ServerAnswer): boolean {
  const b = answer.body as Record<string, unknown> | undefined;
  return answer.status === 200 && typeof b?.accessToken === "string";
}

function mfaRequired(answer: ServerAnswer): MfaRequired | undefined {
  const b = answer.body as Record<string, unknown> | undefined;
  if (b?.mfaRequired !== true) return undefined;
  if (typeof b.mfaSessionId !== "string" || typeof b.mfaBinding !== "string") {
    throw new CliFailure(
      "The server asks for a second factor but gave no API binding (is /api/login an API sign-in?)",
      "MFA_API_UNSUPPORTED",
    );
  }
  const endpoints = (b.endpoints ?? {}) as MfaRequired["endpoints"];
  return { mfaSessionId: b.mfaSessionId, mfaBinding: b.mfaBinding, endpoints };
}
