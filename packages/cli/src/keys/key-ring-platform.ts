import { MONGO_URI, mongoPlugin } from "@keyward/adapters-mongo";
import { createPlatform, envNameOf, type Platform } from "@keyward/core";
import { KeyRingAdmin } from "@keyward/core/identity";
import { CliUsageError } from "../command-line/cli-command.js";
import { KEK_KEY } from "./key-encryption-key-option.js";

/** The key-ring purposes an operator names, and the KeyStore purpose each stands for. */
export const KEY_PURPOSES: Readonly<Record<string, string>> = {
  jwt: "jwt.signing",
  "device-cookie": "mfa.device-cookie",
  "mfa-code": "mfa.code",
  "evidence-payload": "evidence.payload",
};

/**
 * Purposes whose retired keys open stored data (the sealed evidence's payload keys are wrapped by
 * `evidence.payload`): a rotation keeps the retired key for good, so every package it wrapped still
 * opens; erasing a package destroys that package's own key, not the wrapping key.
 */
export const KEPT_AFTER_ROTATION: ReadonlySet<string> = new Set(["evidence.payload"]);

/** The KeyStore purpose of an operator's name for it (`jwt` or `jwt.signing`); usage error otherwise. */
export function purposeOf(name: string | undefined): string {
  const known = Object.entries(KEY_PURPOSES).find(([short, full]) => name === short || name === full);
  if (!known) {
    throw new CliUsageError(
      `${name === undefined ? "Missing" : `Unknown`} key purpose${name === undefined ? "" : ` ${name}`}: one of ${Object.keys(KEY_PURPOSES).join(", ")}`,
    );
  }
  return known[1];
}

/**
 * Runs `work` with the key ring of the store at `uri` (`--mongo-uri`, else `PLATFORM_MONGO_URI`), opened
 * with the operator's key-encryption key: a platform of the kernel and the store alone (no module makes
 * a key at its start), stopped afterwards. The environment is read for the JWT lifetimes.
 */
export async function withStoreKeyRing<T>(
  uri: string | undefined,
  kek: string,
  env: Record<string, string | undefined>,
  work: (admin: KeyRingAdmin, platform: Platform) => Promise<T>,
): Promise<T> {
  const store = uri ?? env[envNameOf(MONGO_URI.key)];
  if (!store) {
    throw new CliUsageError(
      "keys needs --mongo-uri (or PLATFORM_MONGO_URI): the in-memory key store dies with its process, so there is no ring to read",
    );
  }
  const platform = createPlatform({
    env: withoutStoreAndKey(env),
    properties: { [KEK_KEY]: kek },
    plugins: [{ id: "keys-command", properties: KeyRingAdmin.properties }, mongoPlugin({ uri: store })],
  });
  try {
    await platform.start();
    return await work(KeyRingAdmin.of(platform.container), platform);
  } finally {
    await platform.stop();
  }
}

/** The environment minus what the command line decides (the store and the key). */
function withoutStoreAndKey(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const { [envNameOf(MONGO_URI.key)]: _uri, [envNameOf(KEK_KEY)]: _kek, ...rest } = env;
  return rest;
}
