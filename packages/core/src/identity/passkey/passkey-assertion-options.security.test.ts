import { describe, expect, it, vi } from "vitest";
import { ORIGIN, passkeyKit } from "./passkey-kit.test-support.js";
import { SoftwareAuthenticator } from "./software-authenticator.test-support.js";

type Kit = Awaited<ReturnType<typeof passkeyKit>>;

/**
 * What an observer can compare between two answers: every key, every value, except the random
 * challenge, of which only the length counts; `allowCredentials` entries by count, id length and
 * transports.
 */
function shapeOf(options: object): string {
  return JSON.stringify(options, (key, value: unknown) => {
    if (key === "challenge") return `<${String(value).length} chars>`;
    if (key === "id") return `<${String(value).length} chars>`;
    return value;
  });
}

/** A kit where alice has `n` passkeys (one per device) and bob none. */
async function kitWithPasskeys(n: number): Promise<Kit> {
  const kit = await passkeyKit();
  for (let i = 0; i < n; i++) await kit.register(kit.alice, new SoftwareAuthenticator(ORIGIN));
  return kit;
}

describe("sign-in assertion options tell nothing about the username (issue #12 item 6)", () => {
  it("known users with 0, 1 and 3 passkeys, an unknown name and no name get answers of one shape", async () => {
    const shapes = new Set<string>();
    for (const n of [1, 3]) {
      const kit = await kitWithPasskeys(n);
      for (const username of ["alice", "ALICE", "bob", "nobody-at-all", undefined]) {
        shapes.add(shapeOf((await kit.service.authenticationOptions(username)).options));
      }
    }
    expect(shapes.size).toBe(1);
    const [shape] = [...shapes];
    expect(JSON.parse(shape!)).toEqual({
      rpId: "localhost",
      challenge: "<43 chars>",
      allowCredentials: [],
      timeout: 300_000,
      userVerification: "required",
    });
  });

  it("does the same work for every name: no account or passkey is looked up", async () => {
    const kit = await kitWithPasskeys(3);
    const findUser = vi.spyOn(kit.users, "findByUsername");
    const listPasskeys = vi.spyOn(kit.credentials, "listByUser");
    for (const username of ["alice", "bob", "nobody-at-all"])
      await kit.service.authenticationOptions(username);
    expect(findUser).not.toHaveBeenCalled();
    expect(listPasskeys).not.toHaveBeenCalled();
  });

  it("every known user's passkey still signs in from the common answer (discoverable credentials)", async () => {
    const kit = await kitWithPasskeys(0);
    const devices = [new SoftwareAuthenticator(ORIGIN), new SoftwareAuthenticator(ORIGIN)];
    for (const device of devices) await kit.register(kit.alice, device);
    for (const device of devices) {
      const issued = await kit.service.authenticationOptions("alice");
      const auth = await kit.service.verifyAuthentication(
        issued.challengeId,
        device.getAssertion(issued.options),
      );
      expect(auth.username).toBe("alice");
    }
  });
});
