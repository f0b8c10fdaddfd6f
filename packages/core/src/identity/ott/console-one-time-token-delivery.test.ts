import { describe, expect, it, vi } from "vitest";
import { ConsoleOneTimeTokenDelivery } from "./console-one-time-token-delivery.js";

const message = {
  username: "alice",
  to: "alice",
  token: "t".repeat(43),
  link: `http://localhost:8080/login/ott?token=${"t".repeat(43)}`,
  channel: "email",
  at: 0,
};

describe("ConsoleOneTimeTokenDelivery", () => {
  it("writes one line with the link", async () => {
    const lines: string[] = [];
    await new ConsoleOneTimeTokenDelivery({ write: (l) => lines.push(l) }).deliver(message);
    expect(lines).toEqual([`[platform] one-time sign-in link for alice (email to alice): ${message.link}\n`]);
  });

  it("keeps a hostile username on one line", async () => {
    const lines: string[] = [];
    await new ConsoleOneTimeTokenDelivery({ write: (l) => lines.push(l) }).deliver({
      ...message,
      username: "eve\n[platform] forged\u2028",
      to: "eve\r",
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.split("\n")).toHaveLength(2);
    expect(lines[0]).toContain("eve\\u000a[platform] forged\\u2028 (email to eve\\u000d)");
  });

  it("writes to standard output by default", async () => {
    const spy = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      await new ConsoleOneTimeTokenDelivery().deliver(message);
      expect(spy).toHaveBeenCalledWith(expect.stringContaining(message.link));
    } finally {
      spy.mockRestore();
    }
  });
});
