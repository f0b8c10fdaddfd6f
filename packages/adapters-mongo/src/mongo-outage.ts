import { PlatformError } from "@keyward/core/errors";
import type { ErrorTranslator } from "@keyward/core/ports";
import {
  MongoClientClosedError,
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from "mongodb";

/** The name `/health` and error answers give MongoDB. */
export const MONGO_DEPENDENCY = "mongodb";

/**
 * Server codes that mean "this server cannot serve now" (unreachable, shutting down, stepping down, no
 * primary, out of time): the retryable-read codes of the driver specifications.
 */
const UNAVAILABLE_SERVER_CODES: ReadonlySet<number> = new Set([
  6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436,
]);

/** Driver errors without an exported class, told by their stable names (a closed or saturated pool). */
const UNAVAILABLE_ERROR_NAMES: ReadonlySet<string> = new Set([
  "MongoPoolClosedError",
  "MongoWaitQueueTimeoutError",
]);

/** Socket errors of Node's own (not wrapped by the driver) that mean the connection is gone. */
const SOCKET_ERROR_CODES: ReadonlySet<string> = new Set([
  "EPIPE",
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
]);

/**
 * The driver (7.9) lets a raw Node socket error through when it writes to a connection the server
 * has just closed ("This socket has been ended by the other party", EPIPE). Claimed only when the
 * error was raised inside the driver, so another component's network error is not called MongoDB's.
 */
function isDriverSocketError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === "string" &&
    SOCKET_ERROR_CODES.has(code) &&
    /[\\/]mongodb[\\/]lib[\\/]/.test(error.stack ?? "")
  );
}

/**
 * True when `error` says MongoDB could not be reached or could not answer in time (network, server
 * selection, a cleared or closed pool, a timeout, a server shutting down or without a primary), as
 * opposed to a refusal of the request itself (a duplicate key, a bad query), which stays the store's.
 */
export function isMongoOutage(error: unknown): boolean {
  if (!(error instanceof MongoError)) return isDriverSocketError(error);
  if (error instanceof MongoServerError) return UNAVAILABLE_SERVER_CODES.has(Number(error.code));
  return (
    error instanceof MongoNetworkError || // also its timeout and the pool cleared after a network error
    error instanceof MongoServerSelectionError ||
    error instanceof MongoOperationTimeoutError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoClientClosedError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoServerClosedError ||
    UNAVAILABLE_ERROR_NAMES.has(error.name)
  );
}

/** The client-safe error of an outage: no driver message (it may name hosts), the cause kept for logs. */
export function mongoUnavailable(
  cause: unknown,
  message = "The database is unavailable; retry later",
): PlatformError {
  return new PlatformError("DEPENDENCY_UNAVAILABLE", message, {
    details: { dependency: MONGO_DEPENDENCY },
    cause,
  });
}

/**
 * mongoPlugin's member of the ErrorTranslator family: a MongoDB outage answers 503
 * DEPENDENCY_UNAVAILABLE, and `onOutage` hears of it (the health indicator's last-known state).
 */
export function mongoErrorTranslator(onOutage: () => void = () => {}): ErrorTranslator {
  return {
    id: MONGO_DEPENDENCY,
    translate: (error) => {
      if (!isMongoOutage(error)) return undefined;
      onOutage();
      return mongoUnavailable(error);
    },
  };
}
