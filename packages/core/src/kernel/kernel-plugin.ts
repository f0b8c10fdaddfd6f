import { AuditLog, UnreadableAuditLog } from "./audit-log.js";
import { AuditSink } from "./audit-sink.js";
import { Clock, SystemClock } from "./clock.js";
import { EventBus, InProcessEventBus } from "./event-bus.js";
import { CryptoIdGenerator, IdGenerator } from "./id-generator.js";
import { InMemoryAuditSink } from "./in-memory-audit-sink.js";
import { KERNEL_ERROR_CODES } from "./kernel-error-codes.js";
import { JsonLogger, Logger } from "./logger.js";
import { ServerAddress } from "./server-address.js";
import { INSTANCE_ID_PROPERTY, InstanceIdentity } from "./instance-identity.js";
import { ChangeCounters } from "./coordination/change-counters.js";
import { DistributedLock } from "./coordination/distributed-lock.js";
import { InMemoryChangeCounters } from "./coordination/in-memory-change-counters.js";
import { InMemoryDistributedLock } from "./coordination/in-memory-distributed-lock.js";
import { ChangePoller, ChangePollerToken } from "./coordination/change-poller.js";
import { CHANGE_POLL_INTERVAL } from "./coordination/coordination.properties.js";
import { InMemoryKeyStore } from "./keys/in-memory-key-store.js";
import { KeyRing, keySealerFor } from "./keys/key-ring.js";
import { KeyStore } from "./keys/key-store.js";
import { KEY_ENCRYPTION_KEY } from "./keys/key.properties.js";
import type { InjectionToken } from "tsyringe";
import type { PlatformPlugin } from "./plugin.js";
import { defineProperty, prop } from "./properties.js";

/** Capacity of the in-memory audit buffer (events kept before the oldest are dropped and counted). */
export const AUDIT_MEMORY_CAPACITY = defineProperty({
  key: "platform.audit.memory.capacity",
  schema: prop.int(1, 10_000_000),
  default: 10_000,
  description: "Events the in-memory AuditSink keeps; when full the oldest is dropped and counted.",
});

/** The embedded audit trail, behind both the AuditSink and the AuditLog defaults (kernel-internal). */
const EmbeddedAuditTrail: InjectionToken<InMemoryAuditSink> = Symbol("platform.kernel.EmbeddedAuditTrail");

/**
 * The kernel's own ports: Clock, IdGenerator, Logger, EventBus, AuditSink, AuditLog, KeyStore (and the
 * KeyRing over it), DistributedLock and ChangeCounters, and this process's InstanceIdentity; and the kernel's error codes, which every
 * platform knows.
 */
export const kernelPlugin: PlatformPlugin = {
  id: "kernel",
  properties: [AUDIT_MEMORY_CAPACITY, KEY_ENCRYPTION_KEY, CHANGE_POLL_INTERVAL, INSTANCE_ID_PROPERTY],
  errorCodes: [KERNEL_ERROR_CODES],
  register(ctx) {
    ctx.registerDefault(Clock, { useValue: new SystemClock() });
    ctx.registerDefault(IdGenerator, { useValue: new CryptoIdGenerator() });
    ctx.registerDefault(Logger, { useFactory: () => new JsonLogger() });
    ctx.registerDefault(EventBus, {
      useFactory: (c) => {
        const logger = c.resolve(Logger);
        return new InProcessEventBus((error, event) =>
          logger.error("event listener failed", { eventType: event.type, error: String(error) }),
        );
      },
    });
    ctx.registerDefault(ServerAddress, { useValue: new ServerAddress() });
    ctx.registerDefault(InstanceIdentity, {
      useFactory: (c) =>
        InstanceIdentity.of(ctx.properties.get(INSTANCE_ID_PROPERTY), c.resolve(Clock).now()),
    });
    ctx.registerDefault(DistributedLock, {
      useFactory: (c) => new InMemoryDistributedLock(c.resolve(Clock)),
    });
    ctx.registerDefault(ChangeCounters, { useFactory: () => new InMemoryChangeCounters() });
    ctx.registerDefault(ChangePollerToken, {
      useFactory: (c) =>
        new ChangePoller({
          counters: c.resolve(ChangeCounters),
          intervalMs: ctx.properties.get(CHANGE_POLL_INTERVAL),
          logger: c.resolve(Logger),
        }),
    });
    ctx.onStart("change-poller", () => ctx.container.resolve(ChangePollerToken).start());
    ctx.onStop("change-poller", () => ctx.container.resolve(ChangePollerToken).stop());
    ctx.registerDefault(KeyStore, { useFactory: () => new InMemoryKeyStore() });
    ctx.registerDefault(KeyRing, {
      useFactory: (c) => {
        const store = c.resolve(KeyStore);
        const clock = c.resolve(Clock);
        const sealer = keySealerFor(store, ctx.properties.get(KEY_ENCRYPTION_KEY));
        return new KeyRing({ store, sealer, now: () => clock.now() });
      },
    });
    ctx.registerDefault(EmbeddedAuditTrail, {
      useFactory: (c) => new InMemoryAuditSink(ctx.properties.get(AUDIT_MEMORY_CAPACITY), c.resolve(Clock)),
    });
    ctx.registerDefault(AuditSink, { useFactory: (c) => c.resolve(EmbeddedAuditTrail) });
    // The embedded log reads only what the embedded sink recorded: a replaced sink without a
    // replaced log leaves nothing readable here, which the log says instead of answering empty.
    ctx.registerDefault(AuditLog, {
      useFactory: (c) => {
        const trail = c.resolve(EmbeddedAuditTrail);
        return c.resolve(AuditSink) === trail ? trail : new UnreadableAuditLog();
      },
    });
  },
};
