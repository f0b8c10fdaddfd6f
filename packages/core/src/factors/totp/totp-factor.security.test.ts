import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryKeyStore } from "../../kernel/keys/in-memory-key-store.js";
import { KeyRing, keySealerFor } from "../../kernel/keys/key-ring.js";
import { InMemoryTotpEnrolmentStore } from "./in-memory-totp-enrolment-store.js";
import { totpCodeAt } from "./totp-codes.js";
import { totpFactor } from "./totp-factor.js";
import { TotpSecretSeal } from "./totp-secret-seal.js";

const P = { digits: 6, periodSeconds: 30 };
const SECRET = new Uint8Array(Array.from({ length: 20 }, (_, i) => i + 1));

async function setup() {
  const clock = new ManualClock(1_700_000_000_000);
  const keys = new InMemoryKeyStore();
  const seal = new TotpSecretSeal();
  await seal.start(new KeyRing({ store: keys, sealer: keySealerFor(keys, ""), now: () => clock.now() }));
  const store = new InMemoryTotpEnrolmentStore();
  const factor = totpFactor({ store, seal, clock, parameters: P });
  const sealed = seal.seal(SECRET, "u-1");
  await store.begin({ userId: "u-1", sealedSecret: sealed, createdAt: clock.now() });
  const code = (offsetSteps = 0) => totpCodeAt(SECRET, clock.now() + offsetSteps * 30_000, P);
  return { clock, seal, store, factor, sealed, code };
}

describe("the TOTP factor member", () => {
  it("an unconfirmed enrolment never counts: not enrolled, and its right code is refused", async () => {
    const { factor, code } = await setup();
    expect(await factor.enrolled("u-1")).toBe(false);
    expect(await factor.verify?.({ userId: "u-1", answer: code() })).toBe(false);
  });

  it("accepts a right code once per account and step (replay refused), then the next step's code", async () => {
    const { factor, store, sealed, clock, code } = await setup();
    await store.confirm("u-1", sealed, Math.floor(clock.now() / 30_000) - 5);
    expect(await factor.enrolled("u-1")).toBe(true);
    expect(await factor.verify?.({ userId: "u-1", answer: code() })).toBe(true);
    expect(await factor.verify?.({ userId: "u-1", answer: code() })).toBe(false);
    expect(await factor.verify?.({ userId: "u-1", answer: code(-1) })).toBe(false);
    clock.advance(30_000);
    expect(await factor.verify?.({ userId: "u-1", answer: code() })).toBe(true);
  });

  it("refuses a wrong code, a code two steps away, and another account's secret", async () => {
    const { factor, store, sealed, seal, clock, code } = await setup();
    await store.confirm("u-1", sealed, 0);
    const wrong = String((Number(code()) + 1) % 1_000_000).padStart(6, "0");
    expect(await factor.verify?.({ userId: "u-1", answer: wrong })).toBe(false);
    expect(await factor.verify?.({ userId: "u-1", answer: code(2) })).toBe(false);
    // A sealed secret moved to another account does not open there.
    await store.begin({ userId: "u-2", sealedSecret: sealed, createdAt: clock.now() });
    await store.confirm("u-2", sealed, 0);
    expect(seal.open(sealed, "u-2")).toBeUndefined();
    expect(await factor.verify?.({ userId: "u-2", answer: code() })).toBe(false);
  });

  it("keeps only the sealed secret in the store", async () => {
    const { store, sealed } = await setup();
    const row = await store.find("u-1");
    expect(row?.sealedSecret).toBe(sealed);
    expect(row?.sealedSecret).not.toContain(Buffer.from(SECRET).toString("base64url"));
  });
});
