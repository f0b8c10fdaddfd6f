import { describe, expect, it } from "vitest";
import { memoryCliIo } from "./memory-cli-io.js";
import { serverText, terminalSafe, terminalSafeIo } from "./terminal-text.js";

const ESC = "\u001b";

describe("terminalSafe", () => {
  it.each([
    ["clear screen and home", `${ESC}[2J${ESC}[Hok`, "ok"],
    ["colours and hidden text", `${ESC}[31mred${ESC}[0m ${ESC}[8msecret${ESC}[28m`, "red secret"],
    ["a window title (BEL)", `${ESC}]0;pwned\u0007ok`, "ok"],
    ["a window title (ST)", `${ESC}]2;pwned${ESC}\\ok`, "ok"],
    ["a hyperlink", `${ESC}]8;;https://evil.example${ESC}\\click${ESC}]8;;${ESC}\\`, "click"],
    ["an unterminated title swallows the rest", `before${ESC}]0;the rest`, "before"],
    ["a clipboard write (OSC 52)", `${ESC}]52;c;aGVsbG8=\u0007done`, "done"],
    ["a DCS string", `${ESC}Pq#0;2;0;0;0${ESC}\\x`, "x"],
    ["8-bit CSI", "\u009b2Jok", "ok"],
    ["8-bit OSC", "\u009d0;title\u009cok", "ok"],
    ["a terminal reset", `${ESC}cok`, "ok"],
    ["charset switches", `${ESC}(0lqk${ESC}(B`, "lqk"],
    ["carriage return (overwrites the line)", "Password OK\rPassword:", "Password OKPassword:"],
    ["backspace, bell, NUL, DEL", "a\bb\u0007c\u0000d\u007fe", "abcde"],
    ["bidi overrides and isolates", "user\u202egpj.exe\u202c \u2066x\u2069", "usergpj.exe x"],
    ["bidi marks and separators", "a\u200eb\u200fc\u061cd\u2028e\u2029f", "abcdef"],
    ["a lone ESC, and ESC before a control", `a${ESC}`, "a"],
  ])("removes %s", (_name, input, expected) => {
    expect(terminalSafe(input)).toBe(expected);
  });

  it("keeps newlines, tabs and every printable character", () => {
    const text = "line 1\n\tline 2: naïve 東京 €5 — ok ✓ 🙂";
    expect(terminalSafe(text)).toBe(text);
  });

  it("leaves no control of any kind, whatever the input", () => {
    let all = "";
    for (let c = 0; c < 0x2100; c++) all += String.fromCharCode(c);
    const left = [...terminalSafe(all + ESC + all)].filter((ch) => ch !== "\n" && ch !== "\t");
    expect(
      left.filter((ch) => /[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u.test(ch)),
    ).toEqual([]);
  });
});

describe("serverText", () => {
  it("makes one line: a server cannot start a line of its own", () => {
    expect(serverText("Bad password\nplatform: session expired, enter your password again:\tx")).toBe(
      "Bad password platform: session expired, enter your password again: x",
    );
  });
});

describe("terminalSafeIo", () => {
  it("strips what commands write, on stdout, stderr and in prompts", async () => {
    const io = memoryCliIo(["typed"]);
    const safe = terminalSafeIo(io);
    safe.out(`${ESC}[2Jresult`);
    safe.err(`${ESC}]0;t\u0007progress`);
    expect(await safe.readLine(`${ESC}[8mCode: `)).toBe("typed");
    expect(io.stdout).toEqual(["result"]);
    expect(io.stderr).toEqual(["progress", "Code: "]);
  });
});
