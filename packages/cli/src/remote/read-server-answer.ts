import { CliFailure } from "../command-line/cli-command.js";
import { serverText } from "../command-line/terminal-text.js";

/** The JSON answer of a server call; every string in `body` is already `serverText`. */
export interface ServerAnswer {
  status: number;
  body: unknown;
}

/** Largest answer the command reads: 512 KiB (500 users listed take about 150 KiB). */
export const MAX_SERVER_ANSWER_BYTES = 524_288;

const tooLarge = (url: string, maxBytes: number) =>
  new CliFailure(
    `The answer of ${url} is larger than ${maxBytes} bytes; it was not read`,
    "SERVER_ANSWER_TOO_LARGE",
  );

/** The body's bytes, counted as they arrive; past `maxBytes` the stream is cancelled. */
async function cappedBytes(response: Response, url: string, maxBytes: number): Promise<Uint8Array> {
  const declared = response.headers.get("content-length");
  if (declared !== null && /^\d{1,15}$/.test(declared.trim()) && Number(declared) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(url, maxBytes);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      total += next.value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(url, maxBytes);
      }
      chunks.push(next.value);
    }
  } catch (error) {
    if (error instanceof CliFailure) throw error;
    throw new CliFailure(
      `The answer of ${url} was cut off: ${(error as Error).message}`,
      "SERVER_UNREACHABLE",
    );
  }
  return Buffer.concat(chunks, total);
}

/**
 * Reads a server's answer as the `platform` command must: at most `maxBytes` (a streamed body is
 * stopped past it, a larger Content-Length refused unread: SERVER_ANSWER_TOO_LARGE), parsed as JSON
 * when it is JSON, and every string in it made one line of plain text (`serverText`), so nothing a
 * server sends can reach the terminal with a control character, whichever command prints it.
 */
export async function readServerAnswer(
  response: Response,
  url: string,
  maxBytes = MAX_SERVER_ANSWER_BYTES,
): Promise<ServerAnswer> {
  const text = new TextDecoder().decode(await cappedBytes(response, url, maxBytes));
  let body: unknown;
  try {
    body = text
      ? JSON.parse(text, (_key, value) => (typeof value === "string" ? serverText(value) : value))
      : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, body };
}
