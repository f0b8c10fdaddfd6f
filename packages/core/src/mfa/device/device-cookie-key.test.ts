import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryKeyStore } from "../../kernel/keys/in-memory-key-store.js";
import { KeyRing, keySealerFor } from "../../kernel/keys/key-ring.js";
import type { KeyStore } from "../../kernel/keys/key-store.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import { RecordingLogger } from "../../identity/tokens/token-service.test-support.js";
import { DEVICE_COOKIE_KEY_PURPOSE, deviceCookieKeyOf } from "./device-cookie-key.js";
import { StartedDeviceCookies } from "./started-device-cookies.js";

const KEK = "k".repeat(32);

function ringOn(store: KeyStore): KeyRing {
  const clock = new ManualClock();
  return new KeyRing({ store, sealer: keySealerFor(store, KEK), now: () => clock.now() });
}

class DurableStore extends InMemoryKeyStore {
  override readonly durable = true as unknown as false;
}

describe("deviceCookieKeyOf", () => {
  it("shares one kept key between instances on one store", async () => {
    const store = new DurableStore();
    const logger = new RecordingLogger();
    const a = await deviceCookieKeyOf("", ringOn(store), logger);
    const b = await deviceCookieKeyOf("  ", ringOn(store), logger);
    expect(a.key).toEqual(b.key);
    expect(a.key.length).toBe(32);
    expect(a.generated).toBe(false);
    expect(logger.lines).toEqual([]);
    expect((await store.keys(DEVICE_COOKIE_KEY_PURPOSE, Date.now()))[0]!.material).toMatch(/^v1\./);
  });

  it("warns when the kept key dies with the process", async () => {
    const logger = new RecordingLogger();
    const kept = await deviceCookieKeyOf("", ringOn(new InMemoryKeyStore()), logger);
    expect(kept.generated).toBe(true);
    expect(logger.lines.map((l) => l.level)).toEqual(["warn"]);
    expect(logger.lines[0]!.message).toContain("platform.auth.device-cookie.secret");
  });

  it("uses a configured secret as it is, and never stores it", async () => {
    const store = new InMemoryKeyStore();
    const kept = await deviceCookieKeyOf("s".repeat(32), ringOn(store), new RecordingLogger());
    expect(Buffer.from(kept.key).toString()).toBe("s".repeat(32));
    expect(await store.keys(DEVICE_COOKIE_KEY_PURPOSE, Date.now())).toEqual([]);
  });
});

describe("StartedDeviceCookies", () => {
  it("fails closed before start", () => {
    const cookies = new StartedDeviceCookies();
    let error: unknown;
    try {
      cookies.verifiedId({ cookie: () => "x.y" });
    } catch (e) {
      error = e;
    }
    expect(isPlatformError(error) && error.code).toBe("DEPENDENCY_MISSING");
  });
});
