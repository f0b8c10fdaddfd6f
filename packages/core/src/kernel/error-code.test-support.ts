import { isPlatformError } from "./platform-error.js";

/**
 * Test support: the PlatformError code a promise rejects with, `resolved` when it does not reject,
 * or `not a PlatformError: …` for any other failure (so an assertion names what really happened).
 */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return isPlatformError(error) ? error.code : `not a PlatformError: ${String(error)}`;
  }
  return "resolved";
}
