import { PlatformError } from "../../kernel/platform-error.js";

const tooLarge = (limitBytes: number, declaredBytes?: number) =>
  new PlatformError(
    "MODEL_ANSWER_TOO_LARGE",
    `The model endpoint's answer is larger than ${limitBytes} bytes; it was not read`,
    { details: declaredBytes === undefined ? { limitBytes } : { limitBytes, declaredBytes } },
  );

/** The Content-Length a response declares, when it is a plain non-negative integer. */
function declaredLength(response: Response): number | undefined {
  const value = response.headers.get("content-length");
  return value !== null && /^\d{1,15}$/.test(value.trim()) ? Number(value) : undefined;
}

/**
 * The body of `response` as UTF-8 text, read chunk by chunk with a byte counter: past `maxBytes`
 * the stream is cancelled (the connection is dropped) and MODEL_ANSWER_TOO_LARGE is thrown, so a
 * hostile or broken endpoint costs at most `maxBytes` of memory. A declared Content-Length over the
 * cap is refused before anything is read; a smaller one is not trusted (the counter still runs).
 */
export async function readCappedText(response: Response, maxBytes: number): Promise<string> {
  const declared = declaredLength(response);
  if (declared !== undefined && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(maxBytes, declared);
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
