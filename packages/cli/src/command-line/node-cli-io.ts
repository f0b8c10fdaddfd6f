import { createInterface } from "node:readline";
import type { CliIo } from "./cli-command.js";

/**
 * The real terminal: stdout for results, stderr for progress and prompts, lines from stdin (a TTY
 * or a pipe, so scripts can feed a password with `--password-stdin` or a code from a file), and
 * SIGINT/SIGTERM as the stop signal.
 */
export function nodeCliIo(): CliIo {
  const lines: string[] = [];
  const waiting: Array<(line: string | undefined) => void> = [];
  let ended = false;
  let reading = false;

  // Piped input is read line by line once and handed out in order; a TTY is read per prompt.
  function pipedLine(): Promise<string | undefined> {
    if (!reading) {
      reading = true;
      createInterface({ input: process.stdin, terminal: false })
        .on("line", (line) => {
          const w = waiting.shift();
          if (w) w(line);
          else lines.push(line);
        })
        .on("close", () => {
          ended = true;
          for (const w of waiting.splice(0)) w(undefined);
        });
    }
    const next = lines.shift();
    if (next !== undefined) return Promise.resolve(next);
    if (ended) return Promise.resolve(undefined);
    return new Promise((resolve) => waiting.push(resolve));
  }

  return {
    out: (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
    err: (text) => process.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
    env: process.env,
    async readLine(prompt, options = {}) {
      process.stderr.write(prompt);
      if (options.secret && process.stdin.isTTY) return readSecret();
      const line = await pipedLine();
      if (!process.stdin.isTTY) process.stderr.write("\n");
      return line;
    },
    stopSignal() {
      return new Promise((resolve) => {
        let forced: (signal: string) => void = () => {};
        const force = new Promise<string>((r) => {
          forced = r;
        });
        let seen = 0;
        const onSignal = (signal: NodeJS.Signals) => {
          seen += 1;
          if (seen === 1) resolve({ signal, force });
          else forced(signal);
        };
        process.on("SIGINT", onSignal);
        process.on("SIGTERM", onSignal);
      });
    },
  };
}

// Reads a line with echo off: raw mode, backspace edits, Ctrl-C or Ctrl-D abandons.
function readSecret(): Promise<string | undefined> {
  const stdin = process.stdin;
  return new Promise((resolve) => {
    let value = "";
    stdin.setRawMode(true);
    stdin.resume();
    const done = (result: string | undefined) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off("data", onData);
      process.stderr.write("\n");
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n") return done(value);
        if (ch === "\u0003" || ch === "\u0004") return done(undefined);
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on("data", onData);
  });
}
