import { type DependencyContainer, type InjectionToken, instanceCachingFactory } from "tsyringe";
import { type AuditEvent, AuditSink } from "./audit-sink.js";
import type { DefaultProvider } from "./plugin.js";

/**
 * Hears every audit event the platform records, beside whatever AuditSink stores them: a family
 * (metrics count sign-ins, MFA outcomes and denials from it; a host may add a member). `heard` runs
 * synchronously inside `AuditSink.record`, so it must be cheap and never block; what it throws is
 * swallowed (a listener never changes what is recorded, or the request that recorded it).
 */
export interface AuditListener {
  /** A literal id, for diagnostics (`http-metrics`). */
  readonly id: string;
  heard(event: AuditEvent): void;
}

/** DI token of the AuditListener family (members added with `registerMember`). */
export const AuditListener: InjectionToken<AuditListener> = Symbol.for("platform.AuditListener");

/** The effective sink behind the fan-out, when listeners are tapped (kernel-internal). */
const TappedAuditSink: InjectionToken<AuditSink> = Symbol("platform.kernel.TappedAuditSink");

/**
 * The effective sink, its `record` now also telling every listener (neither can fail the caller).
 * The sink keeps its identity (a host that resolves AuditSink still holds its own object, the
 * embedded audit log still reads the sink it writes): `record` is replaced on the instance; a
 * frozen sink gets a wrapper instead.
 */
function listenedTo(sink: AuditSink, listeners: readonly AuditListener[]): AuditSink {
  const store = sink.record.bind(sink);
  const record = (event: AuditEvent): void => {
    store(event);
    for (const listener of listeners) {
      try {
        listener.heard(event);
      } catch {
        // A listener's failure changes nothing recorded.
      }
    }
  };
  try {
    Object.defineProperty(sink, "record", { value: record, configurable: true, writable: true });
    return sink;
  } catch {
    return { record };
  }
}

/**
 * Once every default and override is registered: when the AuditListener family has members, the
 * AuditSink token resolves to the effective sink (`provider`, the last one registered for AuditSink;
 * undefined when the host registered it outside the plugins, then it is resolved now) with every
 * recorded event also told to the listeners. Without listeners nothing changes, so a platform
 * without them pays nothing.
 */
export function tapAuditSink(
  container: DependencyContainer,
  provider: DefaultProvider<AuditSink> | undefined,
  register: (token: InjectionToken<AuditSink>, provider: DefaultProvider<AuditSink>) => void,
): void {
  if (!container.isRegistered(AuditListener, false)) return;
  register(TappedAuditSink, provider ?? { useValue: container.resolve(AuditSink) });
  container.register(AuditSink, {
    useFactory: instanceCachingFactory((c) =>
      listenedTo(c.resolve(TappedAuditSink), c.resolveAll(AuditListener)),
    ),
  });
}
