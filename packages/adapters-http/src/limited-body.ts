import { PlatformError } from "@keyward/core/errors";

/** The part of a request the body reader needs: its headers, its byte stream and whether it was read. */
export interface BodySource {
  readonly headers: Headers;
  readonly body: ReadableStream<Uint8Array> | null;
  /** True when someone read the body before (a web Request's `bodyUsed`). */
  readonly bodyUsed?: boolean;
}

const DIGITS = /^\d+$/;

/**
 * Reads a request body as UTF-8 text, never holding more than `limit` bytes: a declared
 * Content-Length above the limit is refused before reading, and the streamed bytes are counted
 * too, so an absent or lying Content-Length cannot get past it. Throws PAYLOAD_TOO_LARGE (413),
 * MALFORMED_BODY (400) when the bytes are not valid UTF-8 (no silent U+FFFD replacement), or
 * CLIENT_ABORTED when the stream fails mid-body: the request's bytes come from the client, so a
 * failing read is the client hanging up (Node's `aborted` ECONNRESET), never a server error. A body
 * the host already read (a body parser mounted in front of the platform: the Request is `bodyUsed`,
 * its stream locked, or srvx's Node request answers "Body is unusable", a TypeError as the fetch
 * standard has it) is CONFIGURATION_INVALID, logged with the remedy: never an empty body, a hang or
 * an abort.
 */
export async function readLimitedText(source: BodySource, limit: number): Promise<string> {
  const declared = source.headers.get("content-length");
  if (declared !== null && DIGITS.test(declared.trim()) && Number(declared.trim()) > limit) {
    throw tooLarge(limit);
  }
  if (source.bodyUsed === true) throw alreadyRead();
  if (!source.body) return "";
  if (source.body.locked) throw alreadyRead();
  const reader = source.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await readChunk(reader);
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return decodeUtf8(concat(chunks, total));
}

/** One read of the body stream; a failing read is the client hanging up. */
async function readChunk<T>(reader: { read(): Promise<T> }): Promise<T> {
  try {
    return await reader.read();
  } catch (cause) {
    if (cause instanceof TypeError) throw alreadyRead(cause);
    throw new PlatformError(
      "CLIENT_ABORTED",
      "The client closed the connection before the body was complete",
      {
        cause,
      },
    );
  }
}

/** The host read the body before the platform could: a mounting mistake, said plainly in the log. */
function alreadyRead(cause?: unknown): PlatformError {
  return new PlatformError(
    "CONFIGURATION_INVALID",
    "The request body was already read before the platform got it: mount the platform before any body parser (express.json(), express.urlencoded(), a validator); see docs/mounting.md",
    { cause },
  );
}

function tooLarge(limit: number): PlatformError {
  return new PlatformError("PAYLOAD_TOO_LARGE", "The request body is too large", { details: { limit } });
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (cause) {
    throw new PlatformError("MALFORMED_BODY", "The request body is not valid UTF-8", { cause });
  }
}
