import type { JwtKeySource } from "./jwt-key-source.js";
import { type JwtKeys, type LoadJwtKeysOptions, loadJwtKeys } from "./jwt-keys.js";

/**
 * The default JwtKeySource: the keys the `platform.auth.jwt.*` properties configure, or a generated
 * pair (with a warning) when none is. Every `load()` reads the options again, so a generated key is
 * new on each call: the identity module calls it once, at start.
 */
export class ConfiguredJwtKeySource implements JwtKeySource {
  constructor(private readonly options: LoadJwtKeysOptions) {}

  load(): Promise<JwtKeys> {
    return loadJwtKeys(this.options);
  }
}
