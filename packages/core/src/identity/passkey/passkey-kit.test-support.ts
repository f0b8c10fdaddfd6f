import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { InProcessEventBus, type PlatformEvent } from "../../kernel/event-bus.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { InMemoryUserRepository } from "../users/in-memory-user-repository.js";
import { InMemoryPasskeyCredentialRepository } from "./in-memory-passkey-credential-repository.js";
import { InMemoryWebAuthnChallengeStore } from "./in-memory-webauthn-challenge-store.js";
import { PasskeyService, type PasskeyServiceOptions } from "./passkey-service.js";
import { SoftwareAuthenticator } from "./software-authenticator.test-support.js";
import { codeOf } from "../../kernel/error-code.test-support.js";

/** The origin tests serve from (WebAuthn wants `localhost`, never an IP address). */
export const ORIGIN = "http://localhost:8080";

/** A PasskeyService over in-memory adapters, a manual clock, a recorded audit and event trail. */
export async function passkeyKit(overrides: Partial<PasskeyServiceOptions> = {}) {
  const clock = new ManualClock();
  const ids = new CryptoIdGenerator();
  const users = new InMemoryUserRepository({ ids, clock });
  const credentials = new InMemoryPasskeyCredentialRepository({ clock });
  const challenges = new InMemoryWebAuthnChallengeStore({ clock });
  const audit = new InMemoryAuditSink(1_000, clock);
  const events = new InProcessEventBus();
  const published: PlatformEvent[] = [];
  events.on("*", (event) => {
    published.push(event);
  });
  const service = new PasskeyService({
    allowedOrigins: () => [ORIGIN],
    credentials,
    challenges,
    users,
    clock,
    ids,
    audit,
    events,
    ...overrides,
  });
  const alice = await users.create({ username: "alice", authorities: ["ROLE_USER"] });
  const bob = await users.create({ username: "bob", authorities: ["ROLE_USER"] });
  const authenticator = new SoftwareAuthenticator(ORIGIN);

  /** Registers a passkey for `user` on `device` through the service; returns the stored record. */
  async function register(
    user: { id: string; username: string } = alice,
    device: SoftwareAuthenticator = authenticator,
    label?: string,
  ) {
    const ref = { userId: user.id, username: user.username };
    const issued = await service.registrationOptions(ref);
    return service.verifyRegistration(
      ref,
      issued.challengeId,
      device.createCredential(issued.options),
      label,
    );
  }

  return {
    clock,
    ids,
    users,
    credentials,
    challenges,
    audit,
    events,
    published,
    service,
    alice,
    bob,
    authenticator,
    register,
  };
}

/** The PlatformError code a promise rejects with ("resolved" when it does not reject). */
export { codeOf };
