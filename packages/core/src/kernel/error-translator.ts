import type { InjectionToken } from "tsyringe";
import type { PlatformError } from "./platform-error.js";

/**
 * Turns an error of something outside the process (a database driver's network or timeout error)
 * into a PlatformError, so the request answers with a stable code (DEPENDENCY_UNAVAILABLE, 503)
 * instead of a generic 500. A family: each adapter registers one member; they are asked, in
 * registration order, wherever an unknown error would otherwise become a 500, so no store has to
 * wrap its own calls. A member answers `undefined` for errors that are not its own, and never puts
 * a connection string, a host's credentials or a driver message in what it returns.
 */
export interface ErrorTranslator {
  /** Stable id of the member (e.g. `mongodb`). */
  readonly id: string;
  translate(error: unknown): PlatformError | undefined;
}

/** DI token of the ErrorTranslator family. */
export const ErrorTranslator: InjectionToken<ErrorTranslator> = Symbol.for("platform.ErrorTranslator");
