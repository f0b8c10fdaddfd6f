import { AuditSink } from "./audit-sink.js";
import { Clock, SystemClock } from "./clock.js";
import { EventBus, InProcessEventBus } from "./event-bus.js";
import { CryptoIdGenerator, IdGenerator } from "./id-generator.js";
import { InMemoryAuditSink } from "./in-memory-audit-sink.js";
import { JsonLogger, Logger } from "./logger.js";
import { ServerAddress, ServerAddressToken } from "../web/server-address.js";
import type { PlatformPlugin } from "./plugin.js";
import { defineProperty, prop } from "./properties.js";

/** Capacity of the in-memory audit buffer (events kept before the oldest are dropped and counted). */
export const AUDIT_MEMORY_CAPACITY = defineProperty({
  key: "platform.audit.memory.capacity",
  schema: prop.int(1, 10_000_000),
  default: 10_000,
  description: "Events the in-memory AuditSink keeps; when full the oldest is dropped and counted.",
});

/** The kernel's own ports: Clock, IdGenerator, Logger, EventBus, AuditSink. */
export const kernelPlugin: PlatformPlugin = {
  id: "kernel",
  properties: [AUDIT_MEMORY_CAPACITY],
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
    ctx.registerDefault(ServerAddressToken, { useValue: new ServerAddress() });
    ctx.registerDefault(AuditSink, {
      useFactory: (c) => new InMemoryAuditSink(ctx.properties.get(AUDIT_MEMORY_CAPACITY), c.resolve(Clock)),
    });
  },
};
