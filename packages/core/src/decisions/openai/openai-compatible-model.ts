import { PlatformError } from "../../kernel/platform-error.js";
import type { DecisionBudget, DecisionModel } from "../model/decision-model.js";
import { callOpenAiCompatible, DEFAULT_MAX_ANSWER_BYTES } from "./call-openai-compatible.js";
import { chatCompletionText } from "./chat-completion-answer.js";

/** Options of the OpenAI-compatible chat-completions model; the plugin fills them from properties. */
export interface OpenAiCompatibleModelOptions {
  /** The API's `/v1` root: `https://api.openai.com/v1`, `http://localhost:8000/v1` (vLLM), `http://localhost:11434/v1` (Ollama). */
  readonly baseUrl: string;
  /** The model asked for (`gpt-4o-mini`, a vLLM served model, an Ollama tag). */
  readonly model: string;
  /** The API key, sent as a bearer token; none for a local server that asks for no key. Never logged. */
  readonly apiKey?: string;
  /** Extra attempts after a 429, a 5xx or a network error; default 2. */
  readonly maxRetries?: number;
  /** Delay before the first retry in milliseconds, doubled for each further one; default 250. */
  readonly retryBackoffMs?: number;
  /** Largest answer body read, in bytes (MODEL_ANSWER_TOO_LARGE past it); default 256 KiB. */
  readonly maxAnswerBytes?: number;
  /** The fetch used; default the global `fetch`. */
  readonly fetch?: typeof fetch;
}

const RETRY_AFTER_CAP_MS = 10_000;
const retryable = (status: number) => status === 429 || status >= 500;

/** Waits `ms`, or rejects as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** The server's `Retry-After` in milliseconds (seconds form only), capped; undefined without one. */
function retryAfterMs(headers: Headers): number | undefined {
  const seconds = Number(headers.get("retry-after"));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, RETRY_AFTER_CAP_MS) : undefined;
}

/**
 * A DecisionModel over any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama):
 * POST `<baseUrl>/chat/completions` with the system and user messages, a JSON-object response
 * format, temperature 0 and the profile's output tokens as `max_tokens`. The layer's time budget
 * bounds the whole call, retries included; 429, 5xx and network errors are retried with a doubling
 * backoff (or the server's Retry-After). A redirect is refused and the answer is read within
 * `maxAnswerBytes` (`callOpenAiCompatible`); neither is retried. The key is held privately and
 * appears in no error.
 */
export class OpenAiCompatibleModel implements DecisionModel {
  /** The name decision records carry: `openai-compatible:<model>`. */
  readonly name: string;
  /** Prompts leave the platform: the pipeline redacts them first. */
  readonly external = true;
  readonly #key: string | undefined;
  readonly #url: string;
  readonly #fetch: typeof fetch;
  readonly #maxRetries: number;
  readonly #backoffMs: number;
  readonly #maxAnswerBytes: number;
  readonly #model: string;
  readonly #baseUrl: string;

  constructor(options: OpenAiCompatibleModelOptions) {
    this.name = `openai-compatible:${options.model}`;
    this.#model = options.model;
    this.#baseUrl = options.baseUrl;
    this.#key = options.apiKey || undefined;
    this.#url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    this.#fetch = options.fetch ?? fetch;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#backoffMs = options.retryBackoffMs ?? 250;
    this.#maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  }

  /** What a log or an inspection may show of the model: everything but the key. */
  toJSON(): object {
    return {
      name: this.name,
      baseUrl: this.#baseUrl,
      maxRetries: this.#maxRetries,
      retryBackoffMs: this.#backoffMs,
      maxAnswerBytes: this.#maxAnswerBytes,
      apiKey: this.#key ? "(set)" : "(none)",
    };
  }

  async complete(
    systemPrompt: string,
    userPrompt: string,
    budget: DecisionBudget,
    signal: AbortSignal,
  ): Promise<string> {
    const deadline = AbortSignal.timeout(budget.timeoutMs);
    const combined = AbortSignal.any([signal, deadline]);
    const body = JSON.stringify({
      model: this.#model,
      messages: [
        { role: "system", content: systemPrompt },
        { role: "user", content: userPrompt },
      ],
      temperature: 0,
      max_tokens: budget.profile.outputTokens,
      response_format: { type: "json_object" },
    });
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json",
    };
    if (this.#key) headers.authorization = `Bearer ${this.#key}`;
    try {
      return await this.attempts(body, headers, combined);
    } catch (error) {
      if (combined.aborted) {
        const reason = signal.aborted ? "aborted" : "deadline";
        throw new PlatformError("DECISION_MODEL_TIMEOUT", `The decision model gave no answer (${reason})`, {
          details: { reason, timeoutMs: budget.timeoutMs },
        });
      }
      throw error;
    }
  }

  private async attempts(
    body: string,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<string> {
    let status: number | undefined;
    for (let attempt = 0; ; attempt++) {
      let wait = this.#backoffMs * 2 ** attempt;
      try {
        const response = await callOpenAiCompatible({
          url: this.#url,
          headers,
          body,
          signal,
          maxAnswerBytes: this.#maxAnswerBytes,
          fetch: this.#fetch,
        });
        status = response.status;
        if (response.text !== undefined) return chatCompletionText(response.text);
        if (!retryable(response.status))
          throw new PlatformError(
            "DECISION_MODEL_REFUSED",
            `The model endpoint refused the call (${status})`,
            {
              details: { status: response.status },
            },
          );
        wait = Math.max(wait, retryAfterMs(response.headers) ?? 0);
      } catch (error) {
        if (signal.aborted || isFinal(error)) throw error;
        status = undefined;
      }
      if (attempt >= this.#maxRetries)
        throw new PlatformError("DECISION_MODEL_UNAVAILABLE", "The model endpoint failed on every attempt", {
          details: { attempts: attempt + 1, ...(status === undefined ? {} : { status }) },
        });
      await pause(wait, signal);
    }
  }
}

/** Codes retrying cannot fix: a refusal, a redirect, an answer too large or not a chat completion. */
const FINAL_CODES: ReadonlySet<unknown> = new Set([
  "DECISION_MODEL_REFUSED",
  "DECISION_MODEL_MALFORMED",
  "MODEL_REDIRECT_REFUSED",
  "MODEL_ANSWER_TOO_LARGE",
]);

/** A final code is not retried; a network error (fetch's TypeError) is. */
function isFinal(error: unknown): boolean {
  return FINAL_CODES.has((error as { code?: unknown } | null)?.code);
}
