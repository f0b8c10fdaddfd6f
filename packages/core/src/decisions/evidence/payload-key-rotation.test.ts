import { describe, expect, it } from "vitest";
import { KeyRingAdmin } from "../../identity/tokens/key-ring-admin.js";
import { Clock, ManualClock } from "../../kernel/clock.js";
import { InMemoryKeyStore } from "../../kernel/keys/in-memory-key-store.js";
import { KeyRing } from "../../kernel/keys/key-ring.js";
import { KeyStore } from "../../kernel/keys/key-store.js";
import { createPlatform } from "../../kernel/platform.js";
import { PAYLOAD_KEY_PURPOSE, PayloadCipher } from "./payload-cipher.js";
import type { SealedPayload } from "./sealed-package.js";

const YEAR = 365 * 86_400_000;

/** The kernel on one in-memory key store, as `platform keys rotate` opens a real one. */
function ringOn(clock: ManualClock) {
  const platform = createPlatform({
    env: {},
    plugins: [{ id: "keys-test", properties: KeyRingAdmin.properties }],
    properties: { "platform.keys.encryption-key": "an-operator-key-encryption-key-of-32+bytes" },
    register: (c) => {
      c.registerInstance(KeyStore, new InMemoryKeyStore());
      c.registerInstance(Clock, clock);
    },
  });
  return { ring: platform.resolve(KeyRing), admin: KeyRingAdmin.of(platform.container) };
}

const payload = (text: string) =>
  ({ prompts: [{ layer: "L1", system: "s", user: text }], input: {} }) as unknown as SealedPayload;

describe("rotating the evidence payload key (platform keys rotate evidence-payload)", () => {
  it("wraps new packages with the new key and keeps the retired one, so older packages still open years later", async () => {
    const clock = new ManualClock(1_000);
    const { ring, admin } = ringOn(clock);
    let n = 0;
    const cipher = new PayloadCipher({ keys: ring, newKid: () => `ev-${++n}` });
    const before = await cipher.encrypt(payload("before"), "p1", "h1");
    const rotated = await admin.rotate(PAYLOAD_KEY_PURPOSE, { retiredKeptUntil: Number.MAX_SAFE_INTEGER });
    expect(rotated).toMatchObject({ retiredKid: before.kid, algorithm: "A256GCM" });
    const after = await cipher.encrypt(payload("after"), "p2", "h2");
    expect(after.kid).toBe(rotated.kid);
    expect(after.kid).not.toBe(before.kid);
    clock.advance(3 * YEAR);
    expect(await cipher.decrypt(before, "p1", "h1")).toMatchObject({ prompts: [{ user: "before" }] });
    expect(await cipher.decrypt(after, "p2", "h2")).toMatchObject({ prompts: [{ user: "after" }] });
  });

  it("without the keep time a retired payload key would leave the ring at once: its packages no longer open", async () => {
    const clock = new ManualClock(1_000);
    const { ring, admin } = ringOn(clock);
    const cipher = new PayloadCipher({ keys: ring, newKid: () => `ev-${clock.now()}` });
    const before = await cipher.encrypt(payload("before"), "p1", "h1");
    await admin.rotate(PAYLOAD_KEY_PURPOSE);
    clock.advance(1);
    await expect(cipher.decrypt(before, "p1", "h1")).rejects.toMatchObject({ code: "EVIDENCE_UNREADABLE" });
  });
});
