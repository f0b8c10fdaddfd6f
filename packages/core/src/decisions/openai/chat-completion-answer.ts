import { PlatformError } from "../../kernel/platform-error.js";

const malformed = (problem: string) =>
  new PlatformError(
    "DECISION_MODEL_MALFORMED",
    `The model endpoint's answer is not a chat completion: ${problem}`,
    {
      details: { problem },
    },
  );

/**
 * The message text of a chat-completions response body: `choices[0].message.content`.
 * DECISION_MODEL_MALFORMED when the body is not JSON, has no choices, or no text content.
 */
export function chatCompletionText(body: string): string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw malformed("the body is not JSON");
  }
  const choices = (value as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices) || choices.length === 0) throw malformed("no choices");
  const content = (choices[0] as { message?: { content?: unknown } } | null)?.message?.content;
  if (typeof content !== "string") throw malformed("the first choice has no message text");
  return content;
}
