import type { CliIo } from "./cli-command.js";

/** A CliIo for tests: captured output, scripted input lines, a stop signal the test fires. */
export interface MemoryCliIo extends CliIo {
  stdout: string[];
  stderr: string[];
  /** Fires the stop signal (first call) or the force signal (second call). */
  signal(name?: string): void;
}

/**
 * One scripted input line: the text, or a function that produces it when the command asks (a code
 * mailed only after the previous answer).
 */
export type ScriptedLine = string | (() => Promise<string>);

/** Creates a MemoryCliIo that answers `readLine` from `input` in order (undefined when exhausted). */
export function memoryCliIo(
  input: readonly ScriptedLine[] = [],
  env: Record<string, string | undefined> = {},
): MemoryCliIo {
  const lines = [...input];
  const stdout: string[] = [];
  const stderr: string[] = [];
  let fire: ((s: string) => void) | undefined;
  let fireForce: ((s: string) => void) | undefined;
  let fired = 0;
  return {
    stdout,
    stderr,
    env,
    out: (t) => stdout.push(t),
    err: (t) => stderr.push(t),
    readLine: async (prompt) => {
      stderr.push(prompt);
      const line = lines.shift();
      return typeof line === "function" ? line() : line;
    },
    stopSignal: () =>
      new Promise((resolve) => {
        const force = new Promise<string>((r) => {
          fireForce = r;
        });
        fire = (signal) => resolve({ signal, force });
      }),
    signal(name = "SIGTERM") {
      fired += 1;
      if (fired === 1) fire?.(name);
      else fireForce?.(name);
    },
  };
}
