import { MONGO_URI, mongoPlugin } from "@keyward/adapters-mongo";
import { createPlatform, envNameOf } from "@keyward/core";
import { EvidenceChainVerifier } from "@keyward/core/decisions";
import {
  type CliCommand,
  CliFailure,
  CliUsageError,
  type CommandInput,
  EXIT_FAILED,
  EXIT_OK,
} from "../command-line/cli-command.js";
import { serverText } from "../command-line/terminal-text.js";
import { KEK_KEY, KEY_FILE_OPTION, operatorKeyEncryptionKey } from "../keys/key-encryption-key-option.js";
import { adminClient } from "./admin-command-client.js";

type ChainVerification = ReturnType<EvidenceChainVerifier["finish"]>;
type Feed = Parameters<EvidenceChainVerifier["feed"]>[0];
type Checkpoints = ConstructorParameters<typeof EvidenceChainVerifier>[1];
type Keys = ConstructorParameters<typeof EvidenceChainVerifier>[2];

const API = "/platform/admin/api/prompt-inspection/chain";
const PAGE = 1000;
const INSTANCE = /^[A-Za-z0-9._-]{1,128}$/;
/** Most pages one chain is read in (a server that never ends its chain is cut off). */
const MAX_PAGES = 100_000;

/**
 * `platform evidence verify`: proves every sealed-evidence chain intact or names its first broken or
 * missing link. Through the admin API (`--url`, the ADMIN session of `platform login`): links, hashes
 * and signed checkpoints. `--local` against the store (`--mongo-uri`, with the key-encryption key):
 * the same, and every kept payload opened and checked against its hashes. Exit 1 when a chain is not intact.
 */
export const evidenceVerifyCommand: CliCommand = {
  name: ["evidence", "verify"],
  summary:
    "Prove the sealed-evidence hash chains intact, or name the first broken or missing link (ADMIN, or --local)",
  options: [
    { name: "url", value: "<server>", description: "The server (default: the last one you logged in to)" },
    { name: "local", description: "Read the store itself (with the key-encryption key), not the admin API" },
    {
      name: "mongo-uri",
      value: "<uri>",
      description: "With --local: the store (default: $PLATFORM_MONGO_URI)",
    },
    KEY_FILE_OPTION,
  ],
  async run(input) {
    if (input.positionals.length > 0) throw new CliUsageError(`Unexpected argument: ${input.positionals[0]}`);
    const local = input.options.local === true;
    if (!local && (input.options["mongo-uri"] !== undefined || input.options["key-file"] !== undefined))
      throw new CliUsageError("--mongo-uri and --key-file go with --local");
    if (local && input.options.url !== undefined)
      throw new CliUsageError("--url and --local exclude each other");
    const verdicts = local ? await verifyLocally(input) : await verifyRemotely(input);
    if (input.json) input.io.out(JSON.stringify({ ok: verdicts.every((v) => v.intact), chains: verdicts }));
    else input.io.out(verdicts.length === 0 ? "No evidence chains yet." : verdicts.map(lineOf).join("\n"));
    return verdicts.every((v) => v.intact) ? EXIT_OK : EXIT_FAILED;
  },
};

/** One chain's verdict as a line. */
export function lineOf(v: ChainVerification): string {
  const covered = v.coveredTo > 0 ? `, signed checkpoints to ${v.coveredTo}` : ", no signed checkpoint yet";
  const head = `${serverText(v.instanceId)}: ${v.entries} entries${covered}`;
  if (v.intact) return `${head}: intact`;
  const p = v.problem!;
  return `${head}: ${p.kind} at sequence ${p.sequence}${p.packageId === null ? "" : ` (package ${serverText(p.packageId)})`}`;
}

async function verifyRemotely(input: CommandInput): Promise<ChainVerification[]> {
  const client = adminClient(input);
  const heads = (await client.call("GET", API)).body as { chains?: unknown };
  if (!Array.isArray(heads.chains)) throw malformed("no chains");
  const verdicts: ChainVerification[] = [];
  for (const chain of heads.chains as { instanceId?: unknown }[]) {
    const instanceId = chain?.instanceId;
    if (typeof instanceId !== "string" || !INSTANCE.test(instanceId))
      throw malformed("a chain without a valid name");
    let verifier: EvidenceChainVerifier | undefined;
    let after = 0;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const page = (await client.call("GET", `${API}?instance=${instanceId}&after=${after}&limit=${PAGE}`))
        .body as {
        entries?: unknown;
        checkpoints?: unknown;
        keys?: unknown;
        next?: unknown;
      };
      if (!Array.isArray(page.entries) || !Array.isArray(page.checkpoints) || !Array.isArray(page.keys))
        throw malformed("a chain page without entries, checkpoints and keys");
      verifier ??= new EvidenceChainVerifier(instanceId, page.checkpoints as Checkpoints, page.keys as Keys);
      feedSafely(verifier, page.entries as Feed);
      if (typeof page.next !== "number" || !Number.isSafeInteger(page.next) || page.next <= after) break;
      after = page.next;
    }
    verdicts.push(verifier!.finish());
  }
  return verdicts;
}

// A hostile answer (an entry of the wrong shape) is a broken chain, never a crash.
function feedSafely(verifier: EvidenceChainVerifier, entries: Feed): void {
  for (const entry of entries) {
    if (!wellFormed(entry)) {
      const sequence = (entry as { sequence?: unknown } | null)?.sequence;
      verifier.flag("BROKEN_LINK", Number.isSafeInteger(sequence) ? (sequence as number) : 0);
      continue;
    }
    try {
      verifier.feed([entry]);
    } catch {
      verifier.flag("BROKEN_LINK", entry.sequence);
    }
  }
}

/** The shape the verifier reads: an integer sequence, strings where it hashes, a list of ids. */
function wellFormed(entry: unknown): entry is Feed[number] {
  const e = entry as Record<string, unknown> | null;
  return (
    typeof e === "object" &&
    e !== null &&
    Number.isSafeInteger(e.sequence) &&
    Number.isSafeInteger(e.at) &&
    typeof e.instanceId === "string" &&
    typeof e.kind === "string" &&
    typeof e.entryHash === "string" &&
    typeof e.link === "string" &&
    Array.isArray(e.packageIds) &&
    e.packageIds.every((id) => typeof id === "string")
  );
}

async function verifyLocally(input: CommandInput): Promise<ChainVerification[]> {
  const given = input.options["mongo-uri"];
  const uri = typeof given === "string" ? given : input.io.env[envNameOf(MONGO_URI.key)];
  if (!uri)
    throw new CliUsageError(
      "evidence verify --local needs --mongo-uri (or PLATFORM_MONGO_URI): the in-memory store dies with its process",
    );
  const kek = operatorKeyEncryptionKey(input.io.env, input.options["key-file"]);
  const { [envNameOf(MONGO_URI.key)]: _uri, [envNameOf(KEK_KEY)]: _kek, ...env } = input.io.env;
  const platform = createPlatform({ env, properties: { [KEK_KEY]: kek }, plugins: [mongoPlugin({ uri })] });
  try {
    await platform.start();
    return await EvidenceChainVerifier.verifyStore(platform.container);
  } finally {
    await platform.stop();
  }
}

function malformed(what: string): CliFailure {
  return new CliFailure(`The server's chain answer is malformed: ${what}`, "SERVER_ANSWER_INVALID");
}
