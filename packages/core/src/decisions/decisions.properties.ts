import { z } from "zod";
import { defineProperty, prop } from "../kernel/properties.js";

/** Below this L1 confidence the second layer (L2) is asked, as for an ESCALATE answer. */
export const DECISION_ESCALATION_CONFIDENCE = defineProperty<number>({
  key: "platform.security.decision.escalation-confidence",
  schema: prop.number(0, 1),
  default: 0.7,
  description: "L1 answers below this confidence are decided again by L2.",
});

/** The time budget of an L1 model call, retries included. */
export const DECISION_L1_TIMEOUT = defineProperty<number>({
  key: "platform.security.decision.l1.timeout",
  schema: prop.duration().refine((ms) => ms >= 1 && ms <= 600_000, "must be between 1ms and 10 minutes"),
  default: 5_000,
  description: "Time budget of one L1 model call, retries included.",
});

/** The time budget of an L2 model call, retries included. */
export const DECISION_L2_TIMEOUT = defineProperty<number>({
  key: "platform.security.decision.l2.timeout",
  schema: prop.duration().refine((ms) => ms >= 1 && ms <= 600_000, "must be between 1ms and 10 minutes"),
  default: 20_000,
  description: "Time budget of one L2 model call, retries included.",
});

/** The model the decisions plugin registers when the host registers none. */
export const DECISION_MODEL_PROVIDER = defineProperty<"builtin" | "openai-compatible">({
  key: "platform.security.decision.model.provider",
  schema: z.enum(["builtin", "openai-compatible"]),
  default: "builtin",
  description: "builtin: the offline analyst; openai-compatible: a chat-completions endpoint.",
});

/** The `/v1` root of an OpenAI-compatible endpoint (OpenAI, vLLM, Ollama). */
export const DECISION_MODEL_BASE_URL = defineProperty<string>({
  key: "platform.security.decision.model.base-url",
  schema: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  default: "https://api.openai.com/v1",
  description: "The /v1 root the chat-completions adapter posts to.",
});

/** The model name sent to the OpenAI-compatible endpoint. */
export const DECISION_MODEL_NAME = defineProperty<string>({
  key: "platform.security.decision.model.name",
  schema: prop.string().refine((s) => s.length <= 200, "must be at most 200 characters"),
  default: "gpt-4o-mini",
  description: "The model the chat-completions adapter asks for.",
});

/** The environment variable holding the API key; the key itself is never a property. */
export const DECISION_MODEL_API_KEY_ENV = defineProperty<string>({
  key: "platform.security.decision.model.api-key-env",
  schema: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name"),
  default: "PLATFORM_DECISION_MODEL_API_KEY",
  description: "Environment variable the API key is read from; unset sends no Authorization header.",
});

/** Extra attempts after a 429, a 5xx or a network error. */
export const DECISION_MODEL_MAX_RETRIES = defineProperty<number>({
  key: "platform.security.decision.model.max-retries",
  schema: prop.int(0, 5),
  default: 2,
  description: "Retries of a chat-completions call after a 429, 5xx or network error.",
});

/** The first retry's delay; each further retry waits twice as long. */
export const DECISION_MODEL_RETRY_BACKOFF = defineProperty<number>({
  key: "platform.security.decision.model.retry-backoff",
  schema: prop.duration().refine((ms) => ms >= 0 && ms <= 60_000, "must be between 0 and 60 seconds"),
  default: 250,
  description: "Delay before the first retry; doubled for each further one.",
});

/** Largest answer the OpenAI-compatible adapter reads; a larger one fails closed unread. */
export const DECISION_MODEL_MAX_ANSWER_SIZE = defineProperty<number>({
  key: "platform.security.decision.model.max-answer-size",
  schema: prop.byteSize().refine((n) => n >= 4_096 && n <= 67_108_864, "must be between 4KiB and 64MiB"),
  default: 262_144,
  description: "Largest chat-completions answer read, in bytes; a larger one is MODEL_ANSWER_TOO_LARGE.",
});

/** Every property of the decisions module, for the plugin's list. */
export const DECISIONS_PROPERTIES = [
  DECISION_ESCALATION_CONFIDENCE,
  DECISION_L1_TIMEOUT,
  DECISION_L2_TIMEOUT,
  DECISION_MODEL_PROVIDER,
  DECISION_MODEL_BASE_URL,
  DECISION_MODEL_NAME,
  DECISION_MODEL_API_KEY_ENV,
  DECISION_MODEL_MAX_RETRIES,
  DECISION_MODEL_RETRY_BACKOFF,
  DECISION_MODEL_MAX_ANSWER_SIZE,
] as const;
