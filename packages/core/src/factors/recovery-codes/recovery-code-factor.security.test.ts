import { describe, expect, it } from "vitest";
import type { AccountNotice } from "../../identity/notices/account-notices.js";
import { InMemoryUserRepository } from "../../identity/users/in-memory-user-repository.js";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { InMemoryKeyStore } from "../../kernel/keys/in-memory-key-store.js";
import { KeyRing, keySealerFor } from "../../kernel/keys/key-ring.js";
import { InMemoryRecoveryCodeStore } from "./in-memory-recovery-code-store.js";
import { newRecoveryCode, normalizedRecoveryCode, RECOVERY_CODE_ALPHABET } from "./recovery-code-format.js";
import { recoveryCodeFactor } from "./recovery-code-factor.js";
import { RecoveryCodeHasher } from "./recovery-code-hasher.js";

async function setup(satisfiesNamedFactors = false) {
  const clock = new ManualClock(1_700_000_000_000);
  const keys = new InMemoryKeyStore();
  const hasher = new RecoveryCodeHasher();
  await hasher.start(new KeyRing({ store: keys, sealer: keySealerFor(keys, ""), now: () => clock.now() }));
  const store = new InMemoryRecoveryCodeStore();
  const users = new InMemoryUserRepository({ ids: new CryptoIdGenerator(), clock });
  const alice = await users.create({ username: "alice" });
  const audit = new InMemoryAuditSink(100, clock);
  const sent: AccountNotice[] = [];
  const factor = recoveryCodeFactor({
    store,
    hasher,
    users,
    audit,
    notices: { send: (n) => sent.push(n) },
    satisfiesNamedFactors,
  });
  const codes = ["ABCDE-FGH23", "KMNPQ-RST45"];
  await store.replace(
    alice.id,
    codes.map((c) => hasher.hash(alice.id, normalizedRecoveryCode(c) ?? "")),
    1,
  );
  return { hasher, store, factor, alice, audit, sent, codes };
}

describe("recovery code format", () => {
  it("makes grouped codes of the unambiguous alphabet, each different", () => {
    const made = new Set(Array.from({ length: 200 }, () => newRecoveryCode()));
    expect(made.size).toBe(200);
    for (const code of made) {
      expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
      for (const ch of code.replace("-", "")) expect(RECOVERY_CODE_ALPHABET).toContain(ch);
    }
  });

  it("reads a code whatever its case, spaces and hyphens; refuses anything else", () => {
    expect(normalizedRecoveryCode(" abcde fgh23 ")).toBe("ABCDEFGH23");
    expect(normalizedRecoveryCode("ab-cd-efgh-23")).toBe("ABCDEFGH23");
    for (const bad of [
      undefined,
      42,
      {},
      "",
      "ABCDE-FGH2",
      "ABCDE-FGH234",
      "ABCDE-FGH20",
      "ABCDE-FGHI3",
      "ÄBCDE-FGH23",
      `${"-".repeat(60)}ABCDEFGH23`,
    ]) {
      expect(normalizedRecoveryCode(bad), String(bad)).toBeUndefined();
    }
  });

  it("hashes with the key and the account: another account's hash differs, no code is kept", async () => {
    const { hasher } = await setup();
    const other = new RecoveryCodeHasher();
    const keys = new InMemoryKeyStore();
    await other.start(new KeyRing({ store: keys, sealer: keySealerFor(keys, ""), now: () => 1 }));
    const h = hasher.hash("u-1", "ABCDEFGH23");
    expect(h).not.toContain("ABCDEFGH23");
    expect(hasher.hash("u-2", "ABCDEFGH23")).not.toBe(h);
    expect(other.hash("u-1", "ABCDEFGH23")).not.toBe(h);
    expect(hasher.hash("u-1", "ABCDEFGH23")).toBe(h);
  });
});

describe("the recovery-code factor member", () => {
  it("spends a right code once, in any case and grouping; audits and announces each use with the count left", async () => {
    const { factor, alice, audit, sent, codes } = await setup();
    expect(await factor.enrolled(alice.id)).toBe(true);
    expect(
      await factor.verify?.({ userId: alice.id, answer: codes[0]?.toLowerCase().replace("-", " ") }),
    ).toBe(true);
    expect(await factor.verify?.({ userId: alice.id, answer: codes[0] })).toBe(false);
    expect(await factor.remaining?.(alice.id)).toBe(1);
    expect(audit.events().filter((e) => e.type === "auth.mfa.recovery-code.used")).toEqual([
      expect.objectContaining({ principal: "alice", outcome: "success", data: { left: 1 } }),
    ]);
    expect(sent).toEqual([
      {
        username: "alice",
        kind: "recovery-code-used",
        text: expect.stringContaining("1 of your recovery codes is left"),
      },
    ]);
    expect(JSON.stringify(sent)).not.toContain(codes[0]?.replace("-", "") ?? "?");
    expect(await factor.verify?.({ userId: alice.id, answer: codes[1] })).toBe(true);
    expect(await factor.enrolled(alice.id)).toBe(false);
    expect(sent[1]?.text).toContain("0 of your recovery codes are left");
  });

  it("refuses wrong, malformed and another account's codes without announcing anything", async () => {
    const { factor, alice, sent, codes } = await setup();
    for (const answer of ["ABCDE-FGH24", "", "x".repeat(10_000), 12345, null, { code: codes[0] }]) {
      expect(await factor.verify?.({ userId: alice.id, answer })).toBe(false);
    }
    expect(await factor.verify?.({ userId: "someone-else", answer: codes[0] })).toBe(false);
    expect(sent).toEqual([]);
    expect(await factor.remaining?.(alice.id)).toBe(2);
  });

  it("is a stand-in unless satisfiesNamedFactors; removes its enrolment", async () => {
    expect((await setup(false)).factor.standIn).toBe(true);
    const { factor, alice } = await setup(true);
    expect(factor.standIn).toBeUndefined();
    expect(await factor.removeEnrolment?.(alice.id)).toBe(true);
    expect(await factor.enrolled(alice.id)).toBe(false);
  });
});
