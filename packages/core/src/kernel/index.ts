export {
  AUDIT_QUERY_MAX_LIMIT,
  AuditLog,
  auditQueryLimit,
  matchesAuditQuery,
  UnreadableAuditLog,
  type AuditQuery,
} from "./audit-log.js";
export { AuditSink, type AuditEvent } from "./audit-sink.js";
export { Clock, ManualClock, SystemClock } from "./clock.js";
export { parseByteSize, parseDuration } from "./duration.js";
export { EventBus, InProcessEventBus, type EventListener, type PlatformEvent } from "./event-bus.js";
export { CryptoIdGenerator, IdGenerator } from "./id-generator.js";
export { InMemoryAuditSink } from "./in-memory-audit-sink.js";
export { AUDIT_MEMORY_CAPACITY, kernelPlugin } from "./kernel-plugin.js";
export { JsonLogger, Logger, redact, type LogFields } from "./logger.js";
export { createPlatform, type Platform, type PlatformOptions, type PlatformState } from "./platform.js";
export {
  PlatformError,
  isPlatformError,
  type PlatformErrorDetails,
  type PlatformErrorOptions,
} from "./platform-error.js";
export type {
  DefaultProvider,
  LifecycleHook,
  PlatformPlugin,
  PluginContext,
  PortOverrides,
} from "./plugin.js";
export {
  PlatformProperties,
  PlatformPropertiesToken,
  defineProperty,
  envNameOf,
  prop,
  resolveProperties,
  type PropertyDefinition,
  type PropertySource,
  type PropertySourcesInit,
} from "./properties.js";
