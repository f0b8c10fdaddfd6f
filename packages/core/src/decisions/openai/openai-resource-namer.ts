import { z } from "zod";
import { cleanResourceName } from "../../resources/clean-resource-name.js";
import type { ResourceNamer } from "../../resources/resource-namer.js";
import type { ResourceName, ScannedResource } from "../../resources/scanned-resource.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { callOpenAiCompatible, DEFAULT_MAX_ANSWER_BYTES } from "./call-openai-compatible.js";
import { chatCompletionText } from "./chat-completion-answer.js";

/** Options of the OpenAI-compatible resource namer: the decision model's endpoint settings. */
export interface OpenAiResourceNamerOptions {
  /** The API's `/v1` root (`platform.security.decision.model.base-url`). */
  readonly baseUrl: string;
  /** The model asked for (`platform.security.decision.model.name`). */
  readonly model: string;
  /** Sent as a bearer token; never logged. */
  readonly apiKey?: string;
  /** Largest answer body read (`platform.security.decision.model.max-answer-size`); default 256 KiB. */
  readonly maxAnswerBytes?: number;
  /** The fetch used; default the global `fetch`. */
  readonly fetch?: typeof fetch;
}

const SYSTEM_PROMPT = [
  "You name the resources of a web application for the administrators who protect them.",
  "The user message is a JSON object whose `resources` array lists URL endpoints (method and path",
  "pattern) and service methods (Class.method(parameter types)).",
  "For each resource write a friendlyName: a short imperative phrase of at most 60 characters saying",
  'what a caller does with it ("Cancel an order", "List a user\'s orders", "Change a user\'s password"),',
  "and a description: one plain sentence of at most 200 characters.",
  'Answer with one JSON object: {"names":[{"index":0,"friendlyName":"...","description":"..."}]},',
  "exactly one entry per resource, in the order given. Plain text only: no HTML, no Markdown.",
].join(" ");

/** What the model must answer: entries are refused past a generous size (a cleaned name is cut far shorter). */
const NAMES_ANSWER = z.object({
  names: z
    .array(
      z.object({
        index: z.number().int().min(0).optional(),
        friendlyName: z.string().max(1_000),
        description: z.string().max(4_000),
      }),
    )
    .max(100),
});

/**
 * A ResourceNamer over the decision model's OpenAI-compatible chat-completions endpoint: one POST
 * `<baseUrl>/chat/completions` per batch (JSON-object answer, temperature 0), through
 * `callOpenAiCompatible` (no redirect followed, the answer read within the size cap). The answer is
 * validated with zod: a count other than the batch's, indexes that are not the batch's, an entry
 * past 1,000 characters or anything not JSON is RESOURCE_NAMER_FAILED; each name is cleaned
 * (`cleanResourceName`: control characters and HTML removed, cut to length). It makes one attempt:
 * the naming service retries a failed batch once. What it sends is the scanned resources' method,
 * path or method identifier and owner: no data, no secrets.
 */
export class OpenAiResourceNamer implements ResourceNamer {
  readonly id: string;
  readonly #key: string | undefined;
  readonly #url: string;
  readonly #model: string;
  readonly #maxAnswerBytes: number;
  readonly #fetch: typeof fetch;

  constructor(options: OpenAiResourceNamerOptions) {
    this.id = `openai-compatible:${options.model}`;
    this.#key = options.apiKey || undefined;
    this.#url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    this.#model = options.model;
    this.#maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    this.#fetch = options.fetch ?? fetch;
  }

  /** What a log may show of the namer: everything but the key. */
  toJSON(): object {
    return {
      id: this.id,
      url: this.#url,
      maxAnswerBytes: this.#maxAnswerBytes,
      apiKey: this.#key ? "(set)" : "(none)",
    };
  }

  async name(batch: readonly ScannedResource[], signal: AbortSignal): Promise<readonly ResourceName[]> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json",
    };
    if (this.#key) headers.authorization = `Bearer ${this.#key}`;
    const response = await callOpenAiCompatible({
      url: this.#url,
      headers,
      body: JSON.stringify({
        model: this.#model,
        messages: [
          { role: "system", content: SYSTEM_PROMPT },
          { role: "user", content: JSON.stringify({ resources: batch.map(factsOf) }) },
        ],
        temperature: 0,
        max_tokens: Math.min(4_000, 120 * batch.length + 100),
        response_format: { type: "json_object" },
      }),
      signal,
      maxAnswerBytes: this.#maxAnswerBytes,
      fetch: this.#fetch,
    });
    if (response.text === undefined) {
      throw failed("the endpoint refused the call", response.status);
    }
    return namesOf(chatCompletionText(response.text), batch.length);
  }
}

/** What the model is told of one resource. */
function factsOf(resource: ScannedResource, index: number): Record<string, unknown> {
  return resource.resourceType === "URL"
    ? {
        index,
        type: "URL",
        method: resource.httpMethod ?? "ANY",
        path: resource.resourceIdentifier,
        owner: resource.serviceOwner,
      }
    : { index, type: "METHOD", method: resource.resourceIdentifier, owner: resource.serviceOwner };
}

/** The names in a model's message text, in batch order and cleaned, or RESOURCE_NAMER_FAILED. */
function namesOf(content: string, count: number): ResourceName[] {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    throw failed("the message is not JSON");
  }
  const parsed = NAMES_ANSWER.safeParse(value);
  if (!parsed.success) throw failed("the message is not a list of names");
  const entries = parsed.data.names;
  if (entries.length !== count) throw failed(`${entries.length} names for ${count} resources`);
  const ordered = inIndexOrder(entries);
  if (!ordered) throw failed("the indexes are not the batch's");
  return ordered.map((e) => cleanResourceName(e) ?? { friendlyName: "", description: "" });
}

/** Entries without indexes as given; with indexes, sorted by them when they are exactly 0..n-1. */
function inIndexOrder<T extends { index?: number | undefined }>(entries: readonly T[]): T[] | undefined {
  if (entries.every((e) => e.index === undefined)) return [...entries];
  const slots: (T | undefined)[] = new Array(entries.length).fill(undefined);
  for (const entry of entries) {
    if (entry.index === undefined || entry.index >= entries.length || slots[entry.index]) return undefined;
    slots[entry.index] = entry;
  }
  return slots as T[];
}

function failed(problem: string, status?: number): PlatformError {
  return new PlatformError("RESOURCE_NAMER_FAILED", `The resource namer's endpoint failed: ${problem}`, {
    details: status === undefined ? { problem } : { problem, status },
  });
}
