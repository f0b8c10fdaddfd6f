import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { StepUpCoalescer } from "./step-up-coalescer.js";

const exchange = () =>
  new HttpExchange({ method: "GET", url: "/account", headers: {}, remoteAddress: "203.0.113.1" });

describe("StepUpCoalescer", () => {
  it("runs one start per sign-in within the window; joiners get its answer and its cookie", async () => {
    const clock = new ManualClock(0);
    const coalescer = new StepUpCoalescer(clock, async () => true, 1_000);
    let starts = 0;
    const begin = (ex: HttpExchange) => async () => {
      starts++;
      ex.setCookie({ name: "PLATFORM_MFA", value: `m-${starts}.secret`, httpOnly: true, path: "/" });
      return { mfaUrl: "/mfa", mfaSessionId: `m-${starts}`, currentState: "OTT_CHALLENGE" };
    };
    const [a, b] = [exchange(), exchange()];
    const answers = await Promise.all([
      coalescer.start("session:1", a, begin(a)),
      coalescer.start("session:1", b, begin(b)),
    ]);
    expect(starts).toBe(1);
    expect(answers.map((x) => x.mfaSessionId)).toEqual(["m-1", "m-1"]);
    expect(b.response.cookies).toEqual(a.response.cookies);
    const other = exchange();
    expect((await coalescer.start("session:2", other, begin(other))).mfaSessionId).toBe("m-2");
    clock.advance(1_000);
    const later = exchange();
    expect((await coalescer.start("session:1", later, begin(later))).mfaSessionId).toBe("m-3");
  });

  it("does not join a challenge that already ended", async () => {
    const ended = new Set<string>();
    const coalescer = new StepUpCoalescer(new ManualClock(0), async (s) => !ended.has(s.mfaSessionId));
    let starts = 0;
    const begin = async () => ({ mfaUrl: "/mfa", mfaSessionId: `m-${++starts}`, currentState: "S" });
    expect((await coalescer.start("session:1", exchange(), begin)).mfaSessionId).toBe("m-1");
    ended.add("m-1"); // cancelled in the same window
    expect((await coalescer.start("session:1", exchange(), begin)).mfaSessionId).toBe("m-2");
    expect((await coalescer.start("session:1", exchange(), begin)).mfaSessionId).toBe("m-2");
  });

  it("never shares without a key, and does not keep a failed start", async () => {
    const coalescer = new StepUpCoalescer(new ManualClock(0));
    let starts = 0;
    const ok = async () => ({ mfaUrl: "/mfa", mfaSessionId: `m-${++starts}`, currentState: "S" });
    await coalescer.start(undefined, exchange(), ok);
    await coalescer.start(undefined, exchange(), ok);
    expect(starts).toBe(2);
    const failing = () => Promise.reject(new PlatformError("ACCOUNT_LOCKED", "locked"));
    await expect(coalescer.start("token:t", exchange(), failing)).rejects.toThrow("locked");
    expect((await coalescer.start("token:t", exchange(), ok)).mfaSessionId).toBe("m-3");
  });
});
