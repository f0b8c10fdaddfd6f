import { PlatformError } from "../../kernel/platform-error.js";
import { readCappedText } from "./read-capped-text.js";

/** Largest answer an OpenAI-compatible client reads by default: 256 KiB, far above any output budget. */
export const DEFAULT_MAX_ANSWER_BYTES = 262_144;

/** One request to an OpenAI-compatible API (`POST <baseUrl>/chat/completions`, a later resource namer, ...). */
export interface OpenAiCompatibleRequest {
  readonly url: string;
  readonly method?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly signal: AbortSignal;
  /** Largest answer body read, in bytes; default DEFAULT_MAX_ANSWER_BYTES. */
  readonly maxAnswerBytes?: number;
  /** The fetch used; default the global `fetch`. */
  readonly fetch?: typeof fetch;
}

/** What the API answered: the status and headers, and the body text of a 2xx answer. */
export interface OpenAiCompatibleResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The body of a 2xx answer, read within the cap; undefined otherwise (the body is discarded unread). */
  readonly text: string | undefined;
}

/**
 * Sends one request to an OpenAI-compatible API the way every client of one must: a redirect is
 * never followed (MODEL_REDIRECT_REFUSED: the key and the prompt would go wherever the endpoint
 * says), a 2xx body is read with `readCappedText` (MODEL_ANSWER_TOO_LARGE past the cap), and any
 * other answer's body is discarded unread. Network errors and aborts reject as fetch's do, so the
 * caller keeps its own retry and deadline policy.
 */
export async function callOpenAiCompatible(
  request: OpenAiCompatibleRequest,
): Promise<OpenAiCompatibleResponse> {
  const response = await (request.fetch ?? fetch)(request.url, {
    method: request.method ?? "POST",
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    redirect: "manual",
  });
  const { status, headers } = response;
  if (response.type === "opaqueredirect" || (status >= 300 && status < 400)) {
    await response.body?.cancel().catch(() => undefined);
    throw new PlatformError(
      "MODEL_REDIRECT_REFUSED",
      `The model endpoint answered with a redirect (${status}), which is never followed`,
      { details: { status } },
    );
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return { status, headers, text: undefined };
  }
  const text = await readCappedText(response, request.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES);
  return { status, headers, text };
}
