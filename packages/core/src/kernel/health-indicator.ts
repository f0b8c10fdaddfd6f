import type { InjectionToken } from "tsyringe";

/** What a dependency reports: UP, or DOWN with a short reason (never a secret, an address or a stack). */
export interface DependencyHealth {
  readonly status: "UP" | "DOWN";
  readonly reason?: string;
}

/**
 * A dependency the platform needs (a database, a key service), reporting its last-known state. A
 * family: each adapter that talks to something outside the process registers one member. `health()`
 * is called on every `GET /health`, so it answers from what the adapter already knows (its driver's
 * heartbeats, its last failure) and never does I/O itself.
 */
export interface HealthIndicator {
  /** Stable dependency name shown by `/health`, e.g. `mongodb`. */
  readonly name: string;
  health(): DependencyHealth;
}

/** DI token of the HealthIndicator family. */
export const HealthIndicator: InjectionToken<HealthIndicator> = Symbol.for("platform.HealthIndicator");
