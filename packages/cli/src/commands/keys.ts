import { type CliCommand, CliUsageError, EXIT_OK, type OptionSpec } from "../command-line/cli-command.js";
import {
  GENERATED_JWT_ALGORITHMS,
  GENERATED_KEY_KINDS,
  type GeneratedKeyKind,
  generateConfigurationKey,
} from "../keys/configuration-keys.js";
import { KEY_FILE_OPTION, operatorKeyEncryptionKey } from "../keys/key-encryption-key-option.js";
import { KEPT_AFTER_ROTATION, KEY_PURPOSES, purposeOf, withStoreKeyRing } from "../keys/key-ring-platform.js";

const MONGO_URI_OPTION: OptionSpec = {
  name: "mongo-uri",
  value: "<uri>",
  description: "The key store (default: $PLATFORM_MONGO_URI)",
};

/**
 * `platform keys generate <key-encryption-key|jwt|device-cookie> [--algorithm ES256|EdDSA|HS256]`: a
 * new key for a configuration, printed once to stdout in the form its property takes (the property
 * and its environment variable on stderr). Local; touches no store.
 */
export const keysGenerateCommand: CliCommand = {
  name: ["keys", "generate"],
  summary: "Make a key-encryption key, a JWT signing key or a device-cookie secret for a configuration",
  args: `<${GENERATED_KEY_KINDS.join("|")}>`,
  options: [{ name: "algorithm", value: "<alg>", description: "For jwt: ES256 (default), EdDSA or HS256" }],
  async run({ positionals, options, io, json }) {
    const [kind, extra] = positionals;
    if (extra !== undefined) throw new CliUsageError(`Unexpected argument: ${extra}`);
    const named = kind === "kek" ? "key-encryption-key" : kind;
    if (named === undefined || !(GENERATED_KEY_KINDS as readonly string[]).includes(named))
      throw new CliUsageError(`Say which key: one of ${GENERATED_KEY_KINDS.join(", ")}`);
    const algorithm = options.algorithm ?? "ES256";
    const jwtAlgorithm = GENERATED_JWT_ALGORITHMS.find((a) => a === algorithm);
    if (!jwtAlgorithm || (named !== "jwt" && options.algorithm !== undefined))
      throw new CliUsageError(`--algorithm is for jwt: one of ${GENERATED_JWT_ALGORITHMS.join(", ")}`);
    const key = generateConfigurationKey(named as GeneratedKeyKind, jwtAlgorithm);
    if (json) io.out(JSON.stringify(key));
    else {
      io.err(`New value of ${key.property} (environment: ${key.env}); it is shown only now. Keep it secret.`);
      io.out(key.value);
    }
    return EXIT_OK;
  },
};

/** `platform keys list`: the ring's keys per purpose with age and state, never their material. */
export const keysListCommand: CliCommand = {
  name: ["keys", "list"],
  summary: "List the key ring's keys per purpose (age, state; never the material). Local, needs the key",
  options: [MONGO_URI_OPTION, KEY_FILE_OPTION],
  async run({ positionals, options, io, json }) {
    if (positionals.length > 0) throw new CliUsageError(`Unexpected argument: ${positionals[0]}`);
    const kek = operatorKeyEncryptionKey(io.env, options["key-file"]);
    const rows = await withStoreKeyRing(stringOf(options["mongo-uri"]), kek, io.env, (admin) =>
      admin.list(Object.values(KEY_PURPOSES)),
    );
    if (json) io.out(JSON.stringify({ keys: rows }));
    else if (rows.length === 0) io.out("No keys yet: a platform makes them at its first start.");
    else
      io.out(
        rows
          .map((r) =>
            [
              r.purpose.padEnd(18),
              r.kid.padEnd(44),
              r.algorithm.padEnd(12),
              `age ${ageOf(r.ageMs)}`.padEnd(14),
              r.state === "active"
                ? "active"
                : `retired, verifies until ${new Date(r.verifyUntil ?? 0).toISOString()}`,
            ].join(" "),
          )
          .join("\n"),
      );
    return EXIT_OK;
  },
};

/** `platform keys rotate <purpose>`: forces a rotation now (automatic rotation stays as configured). */
export const keysRotateCommand: CliCommand = {
  name: ["keys", "rotate"],
  summary: "Force a rotation of one purpose's key now. Local, needs the key",
  args: `<${Object.keys(KEY_PURPOSES).join("|")}>`,
  options: [MONGO_URI_OPTION, KEY_FILE_OPTION],
  async run({ positionals, options, io, json }) {
    if (positionals.length > 1) throw new CliUsageError(`Unexpected argument: ${positionals[1]}`);
    const purpose = purposeOf(positionals[0]);
    const kek = operatorKeyEncryptionKey(io.env, options["key-file"]);
    const done = await withStoreKeyRing(stringOf(options["mongo-uri"]), kek, io.env, async (admin) => {
      // Every purpose is opened first: a wrong key-encryption key stops here, before any change.
      await admin.list(Object.values(KEY_PURPOSES));
      return admin.rotate(
        purpose,
        KEPT_AFTER_ROTATION.has(purpose) ? { retiredKeptUntil: Number.MAX_SAFE_INTEGER } : {},
      );
    });
    if (json) io.out(JSON.stringify({ ok: true, ...done }));
    else io.out(rotationMessage(purpose, done));
    return EXIT_OK;
  },
};

/** What a forced rotation of `purpose` means for the instances, in one line. */
function rotationMessage(
  purpose: string,
  done: { kid: string; algorithm: string; retiredKid: string; verifyUntil: number },
): string {
  if (purpose === "jwt.signing")
    return `Rotated ${purpose}: ${done.kid} (${done.algorithm}) signs within a minute on every instance; ${done.retiredKid} verifies until ${new Date(done.verifyUntil).toISOString()} and stays in the JWKS until then.`;
  if (KEPT_AFTER_ROTATION.has(purpose))
    return `Rotated ${purpose}: ${done.kid} wraps the keys of new packages at once on every instance; ${done.retiredKid} is kept to open the packages it wrapped.`;
  return `Rotated ${purpose}: ${done.kid} replaces ${done.retiredKid}; instances use it from their next start.`;
}

/** The `platform keys` commands. */
export const keysCommands: readonly CliCommand[] = [keysGenerateCommand, keysListCommand, keysRotateCommand];

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function ageOf(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours}h${minutes % 60}m` : `${Math.floor(hours / 24)}d${hours % 24}h`;
}
