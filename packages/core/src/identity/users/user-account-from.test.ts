import { describe, expect, it } from "vitest";
import { userAccountFrom } from "./user-account-from.js";

describe("userAccountFrom", () => {
  const stored = {
    _id: "u-1",
    username: "alice",
    usernameKey: "alice",
    authorities: ["ROLE_USER"],
    enabled: true,
    locked: false,
    version: 3,
    createdAt: 1_000,
  };

  it("keeps only the account's fields, the id given, and passwordHash undefined when absent", () => {
    expect(userAccountFrom("u-1", stored)).toStrictEqual({
      id: "u-1",
      username: "alice",
      passwordHash: undefined,
      authorities: ["ROLE_USER"],
      enabled: true,
      locked: false,
      version: 3,
      createdAt: 1_000,
    });
  });

  it("gives the answer its own authorities array", () => {
    const account = userAccountFrom("u-1", stored);
    (account.authorities as string[]).push("ROLE_ADMIN");
    expect(stored.authorities).toEqual(["ROLE_USER"]);
  });
});
