import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryKeyStore } from "../../kernel/keys/in-memory-key-store.js";
import { KeyRing, keySealerFor } from "../../kernel/keys/key-ring.js";
import type { KeyStore } from "../../kernel/keys/key-store.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { MFA_CODE_KEY_PURPOSE, mfaCodeKeyOf, StartedMfaCodeKey } from "./mfa-code-key.js";
import { hashMfaCode, verifyMfaCode } from "./mfa-code.js";

const KEK = "k".repeat(32);

function ringOn(store: KeyStore): KeyRing {
  const clock = new ManualClock();
  return new KeyRing({ store, sealer: keySealerFor(store, KEK), now: () => clock.now() });
}

class DurableStore extends InMemoryKeyStore {
  override readonly durable = true as unknown as false;
}

describe("mfaCodeKeyOf", () => {
  it("gives every instance on one key store the same key: a code made on one verifies on another", async () => {
    const store = new DurableStore();
    const a = await mfaCodeKeyOf(ringOn(store));
    const b = await mfaCodeKeyOf(ringOn(store));
    expect(b).toEqual(a);
    expect(a.length).toBe(32);
    const hash = hashMfaCode("123456", "mfa-1", { secret: a, length: 6 });
    expect(verifyMfaCode("123456", hash, "mfa-1", { secret: b, length: 6 })).toBe(true);
    // Kept sealed, never in clear.
    const [kept] = await store.keys(MFA_CODE_KEY_PURPOSE, Date.now());
    expect(kept!.material).toMatch(/^v1\./);
  });

  it("differs between two key stores (a code is worthless against another deployment's store)", async () => {
    const a = await mfaCodeKeyOf(ringOn(new InMemoryKeyStore()));
    const b = await mfaCodeKeyOf(ringOn(new InMemoryKeyStore()));
    expect(b).not.toEqual(a);
  });
});

describe("StartedMfaCodeKey", () => {
  it("fails closed before start", () => {
    const key = new StartedMfaCodeKey();
    let error: unknown;
    try {
      key.get();
    } catch (e) {
      error = e;
    }
    expect(isPlatformError(error) && error.code).toBe("DEPENDENCY_MISSING");
    key.start(new Uint8Array(32).fill(7));
    expect(key.get()).toEqual(new Uint8Array(32).fill(7));
  });
});
