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

/** Replaces values of secret-looking fields, so a careless caller cannot log a password. */
export function redact(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields)) out[k] = REDACT.test(k) ? "[redacted]" : v;
  return out;
}

/** Writes one JSON line per entry to a sink (stderr by default). */
export class JsonLogger implements Logger {
  constructor(
    private readonly write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
    private readonly now: () => number = Date.now,
  ) {}
  info(message: string, fields: LogFields = {}): void {
    this.emit("info", message, fields);
  }
  warn(message: string, fields: LogFields = {}): void {
    this.emit("warn", message, fields);
  }
  error(message: string, fields: LogFields = {}): void {
    this.emit("error", message, fields);
  }
  private emit(level: string, message: string, fields: LogFields): void {
    let line: string;
    try {
      line = JSON.stringify({ time: new Date(this.now()).toISOString(), level, message, ...redact(fields) });
    } catch {
      line = JSON.stringify({ time: new Date(this.now()).toISOString(), level, message });
    }
    this.write(line);
  }
}
