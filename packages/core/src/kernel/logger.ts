import type { InjectionToken } from "tsyringe";

/** Structured fields of a log line. Never put secrets (passwords, tokens, keys) here. */
export type LogFields = Record<string, unknown>;

/** The platform's log port: one JSON object per line by default. */
export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /**
   * Optional: routine noise an operator may want while diagnosing (a client that hung up mid-body).
   * Loggers without it drop such lines; the default JsonLogger has none, so a flood of them costs nothing.
   */
  debug?(message: string, fields?: LogFields): void;
}

/** DI token of the Logger port. */
export const Logger: InjectionToken<Logger> = Symbol.for("platform.Logger");

const REDACT = /pass(word)?|secret|token|authorization|cookie|credential|key/i;

/**
 * A string JSON.stringify writes as it is between quotes: no quote, backslash, control character or
 * surrogate (a lone one is escaped; a pair is left to JSON.stringify).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes
const PLAIN_TEXT = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/**
 * A field name the line's object treats apart: an integer key (listed first), time, level or message
 * (it replaces theirs), `__proto__` (not an own field) or `toJSON` (JSON.stringify would call it).
 */
const OBJECT_PATH_NAME = /^(?:\d|(?:time|level|message|__proto__|toJSON)$)/;

/** Each field name's `,"name":` text ('' for an OBJECT_PATH_NAME); bounded as SECRET_NAMES. */
const FIELD_KEYS = new Map<string, string>();

/** Field names already judged (names come from code, so few); bounded so hostile names cannot grow it. */
const SECRET_NAMES = new Map<string, boolean>();

function isSecretName(name: string): boolean {
  let secret = SECRET_NAMES.get(name);
  if (secret === undefined) {
    secret = REDACT.test(name);
    if (SECRET_NAMES.size < 1024) SECRET_NAMES.set(name, secret);
  }
  return secret;
}

/** Replaces values of secret-looking fields, so a careless caller cannot log a password. */
export function redact(fields: LogFields): LogFields {
  return redactInto({}, fields);
}

/** Copies `fields` into `out`, secret-looking ones redacted (one object, as `redact` without the copy). */
function redactInto(out: LogFields, fields: LogFields): LogFields {
  for (const k of Object.keys(fields)) out[k] = isSecretName(k) ? "[redacted]" : fields[k];
  return out;
}

/**
 * Most bytes of info lines the default sink holds before it writes them (they are written at the end
 * of the event loop's turn at the latest): a flood of lines never grows it without bound.
 */
const MAX_PENDING = 64 * 1024;

/**
 * The default sink of JsonLogger: process stderr, info lines batched per event-loop turn. Under load
 * a turn answers several requests, each with its access line; one write for all of them instead of
 * one synchronous write each (stderr to a file or a pipe is synchronous on Linux). A warn or error
 * line writes the pending ones and itself at once (an operator sees trouble as it happens, in order),
 * and the process's `exit` writes what is pending (a crash's last lines are kept); a kill -9 loses
 * at most one turn's info lines. JsonLogger.emit queues a line inline (it runs once per request).
 */
class StderrLines {
  /** Info lines not written yet, each ending in a newline. */
  pending = "";
  /** Whether this turn's flush is scheduled. */
  scheduled = false;
  private hooked = false;
  /** The turn's flush, bound once (`flush`, inline: no function of ours but this per turn). */
  readonly flushTurn = (): void => {
    this.scheduled = false;
    const text = this.pending;
    if (text === "") return;
    this.pending = "";
    process.stderr.write(text);
  };

  /** Makes the process's `exit` write what is pending (once per process, at the first default logger). */
  hookExit(): void {
    if (this.hooked) return;
    this.hooked = true;
    process.once("exit", () => this.flush());
  }

  /** Writes the pending lines, then `line` (a warn or error line), at once. */
  now(line: string): void {
    const text = `${this.pending}${line}\n`;
    this.pending = "";
    process.stderr.write(text);
  }

  /** Writes the pending lines. */
  flush(): void {
    if (this.pending === "") return;
    const text = this.pending;
    this.pending = "";
    process.stderr.write(text);
  }
}

/** The process's one stderr batch (stderr is one per process; every default JsonLogger shares it). */
const STDERR = new StderrLines();

/**
 * Writes one JSON line per entry to a sink: by default stderr (info lines batched per event-loop
 * turn, see StderrLines); a given `write` gets every line at once, synchronously.
 */
export class JsonLogger implements Logger {
  /**
   * `emit` bound to its level, not wrapped: an access line per request runs `emit` alone. (The
   * class fields are set by the constructor, once per logger.)
   */
  readonly info: (message: string, fields?: LogFields) => void = this.emit.bind(this, "info");
  readonly warn: (message: string, fields?: LogFields) => void = this.emit.bind(this, "warn");
  readonly error: (message: string, fields?: LogFields) => void = this.emit.bind(this, "error");

  constructor(
    private readonly write?: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    if (write === undefined) STDERR.hookExit();
  }

  /** The millisecond whose ISO text `iso` holds (lines in the same millisecond reuse it). */
  private isoAt = Number.NaN;
  private iso = "";

  private emit(level: string, message: string, fields?: LogFields): void {
    let line: string;
    try {
      // The line is written field by field, byte for byte what JSON.stringify makes of
      // { time, level, message, ...fields } with secret-looking fields redacted (an access line per
      // request comes through here): a plain string, a finite number, a boolean or null costs no
      // stringify call, and the time's text is made once per millisecond. `redactInto` and
      // `isSecretName`, inline. A field named as OBJECT_PATH_NAME says, or an object value, takes
      // the object path, as before.
      const at = this.now();
      if (at !== this.isoAt) {
        this.iso = new Date(at).toISOString();
        this.isoAt = at;
      }
      line = `{"time":"${this.iso}","level":"${level}","message":${PLAIN_TEXT.test(message) ? `"${message}"` : JSON.stringify(message)}`;
      let plain = true;
      if (fields !== undefined) {
        for (const k of Object.keys(fields)) {
          let key = FIELD_KEYS.get(k);
          if (key === undefined) {
            key = OBJECT_PATH_NAME.test(k) ? "" : `,${JSON.stringify(k)}:`;
            if (FIELD_KEYS.size < 1024) FIELD_KEYS.set(k, key);
          }
          let secret = SECRET_NAMES.get(k);
          if (secret === undefined) secret = isSecretName(k);
          const v = fields[k];
          if (key === "" || (typeof v === "object" && v !== null && !secret)) {
            plain = false;
            break;
          }
          if (secret) line += `${key}"[redacted]"`;
          else if (typeof v === "string")
            line += PLAIN_TEXT.test(v) ? `${key}"${v}"` : key + JSON.stringify(v);
          else if (typeof v === "number") line += key + (Number.isFinite(v) ? String(v) : "null");
          else if (typeof v === "boolean" || v === null) line += key + String(v);
          else if (typeof v === "bigint") line += key + JSON.stringify(v); // throws, as the object would
          // undefined, a function or a symbol: JSON.stringify leaves the field out.
        }
      }
      if (plain) line += "}";
      else {
        const out: LogFields = { time: this.iso, level, message };
        for (const k of Object.keys(fields as LogFields))
          out[k] = isSecretName(k) ? "[redacted]" : fields![k];
        line = JSON.stringify(out);
      }
    } catch {
      line = JSON.stringify({ time: new Date(this.now()).toISOString(), level, message });
    }
    const write = this.write;
    if (write !== undefined) write(line);
    else if (level !== "info") STDERR.now(line);
    else {
      // StderrLines' queue, inline: held until the turn's flush, or written now when the batch is full.
      const sink = STDERR;
      sink.pending += `${line}\n`;
      if (sink.pending.length >= MAX_PENDING) sink.flush();
      else if (!sink.scheduled) {
        sink.scheduled = true;
        setImmediate(sink.flushTurn).unref();
      }
    }
  }
}
