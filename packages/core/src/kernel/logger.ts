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
      // One object per line (an access line per request goes through here).
      line = JSON.stringify(redactInto({ time: new Date(this.now()).toISOString(), level, message }, fields));
    } catch {
      line = JSON.stringify({ time: new Date(this.now()).toISOString(), level, message });
    }
    this.write(line);
  }
}
