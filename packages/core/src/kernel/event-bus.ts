import type { InjectionToken } from "tsyringe";

/** A published event: a type string and a payload. */
export interface PlatformEvent<T = unknown> {
  type: string;
  payload: T;
}

/** A listener; it may be async. Its failures are reported, never thrown at the publisher. */
export type EventListener<T = unknown> = (event: PlatformEvent<T>) => void | Promise<void>;

/** In-process publish/subscribe between modules (MFA events, policy reloads, ...). */
export interface EventBus {
  /** Subscribes to one type, or `*` for all; returns the unsubscribe function. */
  on<T = unknown>(type: string, listener: EventListener<T>): () => void;
  /** Delivers to every listener; resolves when all listeners settled. Never rejects. */
  publish<T = unknown>(type: string, payload: T): Promise<void>;
}

/** DI token of the EventBus port. */
export const EventBus: InjectionToken<EventBus> = Symbol.for("platform.EventBus");

/** The default bus: synchronous fan-out, listener errors isolated and passed to `onListenerError`. */
export class InProcessEventBus implements EventBus {
  private readonly listeners = new Map<string, Set<EventListener>>();

  constructor(private readonly onListenerError: (error: unknown, event: PlatformEvent) => void = () => {}) {}

  on<T = unknown>(type: string, listener: EventListener<T>): () => void {
    let set = this.listeners.get(type);
    if (!set) {
      set = new Set();
      this.listeners.set(type, set);
    }
    set.add(listener as EventListener);
    return () => set.delete(listener as EventListener);
  }

  async publish<T = unknown>(type: string, payload: T): Promise<void> {
    const event: PlatformEvent = { type, payload };
    const targets = [...(this.listeners.get(type) ?? []), ...(this.listeners.get("*") ?? [])];
    await Promise.all(
      targets.map(async (listener) => {
        try {
          await listener(event);
        } catch (error) {
          this.onListenerError(error, event);
        }
      }),
    );
  }
}
