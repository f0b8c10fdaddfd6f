import type { KeyRing } from "../../kernel/keys/key-ring.js";
import type { JwtKeySource } from "./jwt-key-source.js";
import { type JwtKeys, type LoadJwtKeysOptions, loadJwtKeys, warnGenerated } from "./jwt-keys.js";
import { StoredJwtKeys } from "./stored-jwt-keys.js";

/** Where the default JwtKeySource keeps keys nobody configured, and when it rotates them. */
export interface KeyRingJwtOptions {
  ring: KeyRing;
  now: () => number;
  /** Rotate a kept key once it is this old (ms); 0 never rotates. */
  rotationMs: number;
  /** Access-token lifetime plus clock skew (ms): how long a rotated-out key is still accepted. */
  tokenLifetimeMs: number;
}

/**
 * The default JwtKeySource: the keys the `platform.auth.jwt.*` properties configure. When none is
 * configured, the keys kept in the KeyRing (made by the first instance, shared by every instance on a
 * durable KeyStore, rotated every `platform.auth.jwt.key-rotation`), with a warning when the store
 * dies with the process; without a ring, a key generated at each `load()` (with the same warning).
 */
export class ConfiguredJwtKeySource implements JwtKeySource {
  constructor(
    private readonly options: LoadJwtKeysOptions,
    private readonly kept?: KeyRingJwtOptions,
  ) {}

  async load(): Promise<JwtKeys> {
    const { privateKeyPem, publicKeyPem, secret } = this.options;
    const configured = [privateKeyPem, publicKeyPem, secret].some((v) => v !== undefined && v.trim() !== "");
    if (configured || !this.kept) return loadJwtKeys(this.options);
    const algorithm = this.options.algorithm ?? "ES256";
    // Validates the algorithm exactly as a configured key would be.
    if (algorithm !== "ES256" && algorithm !== "EdDSA" && algorithm !== "HS256")
      return loadJwtKeys(this.options);
    const keys = await StoredJwtKeys.open({ ...this.kept, algorithm });
    if (keys.generated) {
      warnGenerated(
        this.options.logger,
        keys,
        algorithm === "HS256" ? "platform.auth.jwt.secret" : "platform.auth.jwt.private-key",
      );
    } else {
      this.options.logger.info("JWT signing key from the key store", { algorithm, kid: keys.kid });
    }
    return keys;
  }
}
