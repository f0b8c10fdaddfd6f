import { describe, expect, it } from "vitest";
import { CountingPasswordHasher } from "./counting-password-hasher.js";
import type { PasswordHasher } from "./password-hasher.js";

const fake: PasswordHasher = {
  hash: async (password) => `h:${password}`,
  verify: async (password, encoded) => encoded === `h:${password}`,
  needsRehash: (encoded) => !encoded.startsWith("h:"),
  dummyVerify: async () => {},
};

describe("CountingPasswordHasher", () => {
  it("delegates every call and counts hashes, verifies, dummy verifies and work", async () => {
    const counting = new CountingPasswordHasher(fake);
    expect(await counting.hash("pw")).toBe("h:pw");
    expect(await counting.verify("pw", "h:pw")).toBe(true);
    expect(await counting.verify("no", "h:pw")).toBe(false);
    await counting.dummyVerify("pw");
    expect(counting.needsRehash("x")).toBe(true);
    expect(counting).toMatchObject({ hashes: 1, verifies: 2, dummyVerifies: 1, work: 3 });
    counting.reset();
    expect(counting).toMatchObject({ hashes: 0, verifies: 0, dummyVerifies: 0, work: 0 });
  });

  it("counts a call even when the wrapped hasher rejects", async () => {
    const counting = new CountingPasswordHasher({ ...fake, verify: () => Promise.reject(new Error("down")) });
    await expect(counting.verify("pw", "h:pw")).rejects.toThrow("down");
    expect(counting.work).toBe(1);
  });
});
