import { PlatformError } from "../../kernel/platform-error.js";

/**
 * Names generic code probes on any object (promise resolution, JSON, test matchers): they must stay
 * `undefined` rather than look like a missing DSL method.
 */
const PROBED: ReadonlySet<string> = new Set(["then", "toJSON", "asymmetricMatch", "nodeType", "tagName"]);

/** What a method name looks like in the DSL (`mfa`, `recentFactor`). */
const METHOD_NAME = /^[a-z][A-Za-z0-9]*$/;

/**
 * Which plugin contributes a method this module knows of by name only (a hint for the error message;
 * identity imports nothing above it). A host's own methods get the generic message.
 */
const KNOWN_CONTRIBUTORS: Readonly<Record<string, string>> = Object.freeze({
  mfa: "mfaPlugin (from @keyward/core)",
  recentFactor: "mfaPlugin (from @keyward/core)",
});

/**
 * A prototype that answers a method no installed plugin contributed: the method exists (TypeScript
 * declares it by declaration merging wherever its module's types are loaded), and calling it throws
 * CONFIGURATION_INVALID naming what is missing, instead of "is not a function". Put at the end of a
 * builder's prototype chain; the contributed methods are the builder's own properties, so only
 * names nothing defines reach it. `what` names the builder (`the registry DSL`).
 */
export function missingContributionPrototype(what: string): object {
  return new Proxy(Object.prototype, {
    get(target, name, receiver) {
      if (typeof name !== "string" || name in target || PROBED.has(name) || !METHOD_NAME.test(name))
        return Reflect.get(target, name, receiver);
      return () => {
        throw missingContribution(what, name);
      };
    },
  });
}

/** The error for `.name()` on a builder (`what`) of a platform where no plugin contributes it. */
export function missingContribution(what: string, name: string): PlatformError {
  const plugin = KNOWN_CONTRIBUTORS[name];
  return new PlatformError(
    "CONFIGURATION_INVALID",
    `.${name}() is not in ${what} of this platform: no installed plugin contributes it` +
      (plugin ? `; add ${plugin} to the platform's plugins` : "; add the plugin that provides it"),
  );
}
