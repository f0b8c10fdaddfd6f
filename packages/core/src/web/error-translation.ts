import type { DependencyContainer } from "tsyringe";
import { ErrorTranslator } from "../kernel/error-translator.js";
import { isPlatformError } from "../kernel/platform-error.js";

/**
 * The ErrorTranslator family of `container` as one function: a PlatformError, or an error no member
 * claims, comes back as it was; otherwise the first member's translation. The members are read once,
 * at the first unknown error (the family is complete once the platform is built).
 */
export function errorTranslation(container: DependencyContainer | undefined): (error: unknown) => unknown {
  let translators: readonly ErrorTranslator[] | undefined;
  return (error) => {
    if (isPlatformError(error) || container === undefined) return error;
    translators ??= container.isRegistered(ErrorTranslator, true)
      ? container.resolveAll(ErrorTranslator)
      : [];
    for (const translator of translators) {
      const translated = translateQuietly(translator, error);
      if (translated !== undefined) return translated;
    }
    return error;
  };
}

/** A member that throws claims nothing: the original error still gets its generic answer. */
function translateQuietly(translator: ErrorTranslator, error: unknown): unknown {
  try {
    return translator.translate(error);
  } catch {
    return undefined;
  }
}
