import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import type { LogFields, Logger } from "../../kernel/logger.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { OneTimeTokenMessage } from "../ott/one-time-token-delivery.js";
import { deliveredAccountNotices } from "./account-notices.js";

function recordingLogger(lines: Array<[string, LogFields | undefined]>): Logger {
  const push = (message: string, fields?: LogFields) => void lines.push([message, fields]);
  return { info: push, warn: push, error: push };
}

const settle = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

describe("deliveredAccountNotices", () => {
  it("sends one account-notice message with no token and a link to the account page, after the caller returns", async () => {
    const sent: OneTimeTokenMessage[] = [];
    const notices = deliveredAccountNotices({
      delivery: { deliver: async (m) => void sent.push(m) },
      clock: new ManualClock(1_000),
      logger: recordingLogger([]),
      publicUrl: () => "https://id.example",
    });
    notices.send({ username: "alice", kind: "recovery-code-used", text: "A recovery code was used." });
    expect(sent).toEqual([]);
    await settle();
    expect(sent).toEqual([
      {
        username: "alice",
        to: "alice",
        token: "",
        link: "https://id.example/account",
        channel: "account-notice",
        notice: "A recovery code was used.",
        at: 1_000,
      },
    ]);
  });

  it("logs a failed delivery by its code only and never throws to the caller", async () => {
    const lines: Array<[string, LogFields | undefined]> = [];
    const notices = deliveredAccountNotices({
      delivery: {
        deliver: async () => {
          throw new PlatformError("DELIVERY_FAILED", "smtp refused alice@example.com");
        },
      },
      clock: new ManualClock(0),
      logger: recordingLogger(lines),
      publicUrl: () => "",
    });
    expect(() => notices.send({ username: "alice", kind: "factors-reset", text: "x" })).not.toThrow();
    await settle();
    expect(lines).toEqual([
      ["account notice not delivered", { kind: "factors-reset", error: "DELIVERY_FAILED" }],
    ]);
    expect(JSON.stringify(lines)).not.toContain("alice");
  });
});
