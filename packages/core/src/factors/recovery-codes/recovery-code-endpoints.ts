import { z } from "zod";
import type { ChainRoute } from "../../identity/chain/chain-route.js";
import type { AccountNotices } from "../../identity/notices/account-notices.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import { jsonAnswer } from "../../web/contract-parts.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { RouteContract } from "../../web/route-contract.js";
import { requireFreshSecondFactor, type StepUpStarter } from "../../mfa/step-up/fresh-second-factor.js";
import { newRecoveryCode, normalizedRecoveryCode, RECOVERY_CODE_COUNT } from "./recovery-code-format.js";
import type { RecoveryCodeHasher } from "./recovery-code-hasher.js";
import type { RecoveryCodeStore } from "./recovery-code-store.js";

/** Where the signed-in user makes a new set of recovery codes. */
export const RECOVERY_CODES_URL = "/api/account/recovery-codes";

/** The endpoint's OpenAPI contract: an optional JSON object in, the new set out, a step-up refusal. */
const CREATE_CONTRACT: RouteContract = {
  body: { schema: z.looseObject({}), media: ["json"], required: false },
  responses: {
    201: jsonAnswer(
      "The new set, shown once (no-store); every code of the old set stops working",
      z.object({ codes: z.array(z.string()), count: z.number().int() }),
    ),
  },
  errors: ["MFA_CHALLENGE_REQUIRED"],
};

/** What the endpoint reads. */
export interface RecoveryCodeEndpointOptions {
  store: RecoveryCodeStore;
  hasher: RecoveryCodeHasher;
  clock: Clock;
  audit: AuditSink;
  /** Tells the user a new set was made (someone holding a fresh sign-in could do it). */
  notices: AccountNotices;
  /** A second factor proved within this long is "fresh" (milliseconds). */
  stepUpMaxAgeMs: number;
  /** Starts a step-up for a caller whose second factor is not fresh (the MFA chain hook's), if any. */
  startStepUp: StepUpStarter;
}

/**
 * `POST /api/account/recovery-codes`: after a fresh second factor, a new set of ten codes replaces the
 * old one (every old code is void) and is answered once (`no-store`); only their keyed hashes are kept.
 * The body may be empty or a JSON object; its fields are ignored (nobody chooses a code), while an
 * oversized, malformed or non-JSON body is refused before anything changes. Audited as
 * `auth.mfa.recovery-codes.created` and announced to the user (kind `recovery-codes-created`).
 */
export class RecoveryCodeEndpoints {
  constructor(private readonly o: RecoveryCodeEndpointOptions) {}

  /** The route. */
  routes(): ChainRoute[] {
    return [
      {
        feature: "mfa.recovery-codes",
        access: "authenticated",
        method: "POST",
        path: RECOVERY_CODES_URL,
        name: "mfa.recovery-codes-create",
        meta: { contract: CREATE_CONTRACT },
        description: "Makes a new set of ten recovery codes (the old set stops working); shown once",
        handler: (x) => this.create(x),
      },
    ];
  }

  private async create(exchange: HttpExchange): Promise<void> {
    const { clock, stepUpMaxAgeMs: maxAgeMs, startStepUp } = this.o;
    const who = await requireFreshSecondFactor(exchange, { clock, maxAgeMs, startStepUp });
    await exchange.fields(["json"]);
    const codes = distinctCodes();
    const hashes = codes.map((c) => this.o.hasher.hash(who.userId, normalizedRecoveryCode(c) ?? c));
    await this.o.store.replace(who.userId, hashes, clock.now());
    this.o.audit.record({
      type: "auth.mfa.recovery-codes.created",
      principal: who.username,
      outcome: "success",
      remoteAddress: exchange.remoteAddress,
      data: { count: codes.length },
    });
    this.o.notices.send({
      username: who.username,
      kind: "recovery-codes-created",
      text:
        "A new set of recovery codes was made for your account; the old codes no longer work. " +
        "If this was not you, secure your account now.",
    });
    exchange.response.headers.set("cache-control", "no-store");
    exchange.json(201, { codes, count: codes.length });
  }
}

// Ten different codes (a repeat among 31^10 is next to impossible, but a set must never hold one).
function distinctCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newRecoveryCode());
  return [...codes];
}
