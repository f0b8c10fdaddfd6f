import { describe, expect, it } from "vitest";
import { requesterKeyOf } from "./requester-key.js";

describe("requesterKeyOf", () => {
  it("names the user, else the session, else the event", () => {
    expect(requesterKeyOf({ userId: "u-1", sessionId: "s-1", eventId: "e-1" })).toBe("u:u-1");
    expect(requesterKeyOf({ sessionId: "s-1", eventId: "e-1" })).toBe("s:s-1");
    expect(requesterKeyOf({ eventId: "e-1" })).toBe("e:e-1");
  });

  it("keeps a user id, a session id and an event id that are equal apart", () => {
    const keys = new Set([
      requesterKeyOf({ userId: "x", eventId: "e" }),
      requesterKeyOf({ sessionId: "x", eventId: "e" }),
      requesterKeyOf({ eventId: "x" }),
      requesterKeyOf({ sessionId: "u:x", eventId: "e" }),
    ]);
    expect(keys.size).toBe(4);
  });

  it("reads an empty id as absent, and never throws on an empty, huge or Unicode id", () => {
    expect(requesterKeyOf({ userId: "", sessionId: "", eventId: "e-1" })).toBe("e:e-1");
    expect(requesterKeyOf({ userId: "", sessionId: "s-1", eventId: "e-1" })).toBe("s:s-1");
    expect(requesterKeyOf({ eventId: "" })).toBe("e:");
    expect(requesterKeyOf({ userId: "x".repeat(1_000_000), eventId: "e" })).toHaveLength(1_000_002);
    expect(requesterKeyOf({ userId: "Zoë\u0000\uD800\u{1F600}", eventId: "e" })).toBe(
      "u:Zoë\u0000\uD800\u{1F600}",
    );
  });
});
