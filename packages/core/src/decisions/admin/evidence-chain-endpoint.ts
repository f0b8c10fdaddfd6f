import { z } from "zod";
import type { AuditSink } from "../../kernel/audit-sink.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { jsonAnswer } from "../../web/contract-parts.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { RouteContract } from "../../web/route-contract.js";
import type { Route } from "../../web/route-table.js";
import type { ChainEntry } from "../evidence/chain-entry.js";
import type { CheckpointSigner } from "../evidence/evidence-checkpoint.js";
import { EVIDENCE_RECENT_MAX_LIMIT, type SealedEvidenceStore } from "../evidence/sealed-evidence-store.js";
import { decisionsAdmin } from "./decisions-admin-access.js";

/** Where the evidence chains are read. */
export const EVIDENCE_CHAIN_PATH = "/platform/admin/api/prompt-inspection/chain";
const PARAMS = ["instance", "after", "limit"];
const INSTANCE = /^[A-Za-z0-9._-]{1,128}$/;
const DEFAULT_LIMIT = 500;

const CONTRACT: RouteContract = {
  query: z.strictObject({
    instance: z.string().optional(),
    after: z.string().optional(),
    limit: z.string().optional(),
  }),
  responses: {
    200: jsonAnswer(
      "Without `instance`: every chain's head and the checkpoint keys; with it: a page of its entries (payloads left out), its checkpoints and the keys",
      z.looseObject({ keys: z.array(z.looseObject({ kid: z.string() })) }),
    ),
  },
  errors: ["VALIDATION_FAILED"],
};

/**
 * `GET /platform/admin/api/prompt-inspection/chain` (ADMIN): what `platform evidence verify` reads.
 * Without a query: `{ chains: [{ instanceId, head: { sequence, link } }], keys }`; with
 * `instance=<id>` (and `after`, a sequence, default 0; `limit` 1..1000, default 500): `{ instanceId,
 * entries, checkpoints, keys, next }`, entries in ascending sequence with headers but never payloads,
 * `next` the `after` of the next page or null. Keys are the checkpoint keys' public halves.
 */
export class EvidenceChainEndpoint {
  constructor(
    private readonly o: { store: SealedEvidenceStore; signer: CheckpointSigner; audit: AuditSink },
  ) {}

  /** The route, an application route of the `decisions` feature. */
  route(): Route {
    return {
      method: "GET",
      path: EVIDENCE_CHAIN_PATH,
      name: "decisions.admin.evidence-chain",
      meta: { contract: CONTRACT },
      description: "The sealed-evidence hash chains: heads, or one chain's entries and signed checkpoints",
      feature: "decisions",
      access: "admin",
      handler: (exchange) => this.answer(exchange),
    };
  }

  private async answer(exchange: HttpExchange): Promise<void> {
    decisionsAdmin(exchange, this.o.audit);
    const query = parseChainQuery(exchange.query);
    const keys = await this.o.signer.publicKeys();
    if (query.instance === undefined) {
      const chains = [];
      for (const instanceId of await this.o.store.chains()) {
        const head = await this.o.store.head(instanceId);
        chains.push({ instanceId, head: head ? { sequence: head.sequence, link: head.link } : null });
      }
      exchange.json(200, { chains, keys });
      return;
    }
    const entries = await this.o.store.entries(query.instance, query.after, query.limit);
    const checkpoints = await this.o.store.checkpoints(query.instance);
    const next = entries.length === query.limit ? entries.at(-1)!.sequence : null;
    exchange.json(200, {
      instanceId: query.instance,
      entries: entries.map(withoutPayload),
      checkpoints,
      keys,
      next,
    });
  }
}

function withoutPayload(entry: ChainEntry): Omit<ChainEntry, "payload"> {
  const { payload: _payload, ...rest } = entry;
  return rest;
}

/** The chain query, checked: an unknown or repeated parameter or a bad value is VALIDATION_FAILED. */
function parseChainQuery(query: URLSearchParams): { instance?: string; after: number; limit: number } {
  const seen = new Set<string>();
  for (const key of query.keys()) {
    if (!PARAMS.includes(key)) throw invalid(`Unknown parameter; expected ${PARAMS.join(", ")}`, key);
    if (seen.has(key)) throw invalid(`${key} is given more than once`, key);
    seen.add(key);
  }
  const instance = query.get("instance") ?? undefined;
  if (instance !== undefined && !INSTANCE.test(instance))
    throw invalid("instance must be 1 to 128 of letters, digits, '.', '_', '-'", "instance");
  const after = integer(query.get("after"), "after", 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const limit = integer(query.get("limit"), "limit", 1, EVIDENCE_RECENT_MAX_LIMIT) ?? DEFAULT_LIMIT;
  if (instance === undefined && (query.has("after") || query.has("limit")))
    throw invalid("after and limit need instance", "instance");
  return { ...(instance === undefined ? {} : { instance }), after, limit };
}

function integer(value: string | null, key: string, min: number, max: number): number | undefined {
  if (value === null) return undefined;
  const n = Number(value);
  if (!/^\d{1,16}$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max)
    throw invalid(`${key} must be an integer from ${min} to ${max}`, key);
  return n;
}

function invalid(message: string, field: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", message, { details: { fields: [field.slice(0, 64)] } });
}
