import type { DecisionHistoryStore } from "../../decisions/history/decision-history-store.js";
import type { UserRepository } from "../../identity/users/user-repository.js";
import { writeValue } from "../../prompts/layouts/v20/value-forms.js";
import type {
  FactClaim,
  FactSourceAnswer,
  FactSourceQuery,
  PromptFactSourceVerifier,
} from "../prompt-fact-source-verifier.js";

const DAY_MS = 86_400_000;
/** How far back the decision history is read to find a past record a prompt drew. */
const HISTORY_READ = 64;

/** The stores the sample verifier reads. */
export interface StoreFactSourceVerifierOptions {
  readonly users: UserRepository;
  readonly history: DecisionHistoryStore;
}

type Account = NonNullable<Awaited<ReturnType<UserRepository["findById"]>>>;
type HistoryRecord = Awaited<ReturnType<DecisionHistoryStore["recentFor"]>>[number];

const answer = (claim: FactClaim, ok: boolean, detail: string): FactSourceAnswer => ({
  factId: claim.factId,
  outcome: ok ? "CONFIRMED" : "CONTRADICTED",
  ...(ok ? {} : { detail }),
});

function accountClaim(claim: FactClaim, account: Account, capturedAt: number): FactSourceAnswer | undefined {
  const authorities = (roles: boolean) => account.authorities.filter((a) => a.startsWith("ROLE_") === roles);
  switch (claim.key) {
    case "request.subject":
      return answer(
        claim,
        claim.value === writeValue("text", account.username),
        "the account's username differs",
      );
    case "request.roles":
      return answer(
        claim,
        claim.value === writeValue("list", authorities(true)),
        `the account's roles are ${writeValue("list", authorities(true))}`,
      );
    case "request.permissions":
      return answer(
        claim,
        claim.value === writeValue("list", authorities(false)),
        "the account's permissions differ",
      );
    case "identity.account-age-days": {
      const days = Math.floor((capturedAt - account.createdAt) / DAY_MS);
      return answer(
        claim,
        Math.abs(Number(claim.value) - days) <= 1,
        `the account was ${days} days old at capture`,
      );
    }
    default:
      return undefined;
  }
}

function recordClaim(claim: FactClaim, history: readonly HistoryRecord[]): FactSourceAnswer {
  const id = claim.key.slice("past-record:".length);
  const record = history.find((r) => r.id === id);
  if (record === undefined)
    return { factId: claim.factId, outcome: "NO_RECORD", detail: `no decision ${id} in the recent history` };
  const fields = claim.value.split(" | ");
  const time = new Date(record.at).toISOString().replace(/\.\d{3}Z$/, "Z");
  return answer(
    claim,
    fields[1] === time && fields[8] === record.action,
    `decision ${id} was ${record.action} at ${time}`,
  );
}

/**
 * A sample PromptFactSourceVerifier over the platform's own stores (what the demo runs on): the
 * subject, roles, permissions and account age against the UserRepository (today's account: a host
 * with a role history would compare as of the capture), and each past record's time and decision
 * against the DecisionHistoryStore. Claims it cannot judge are left unanswered.
 */
export class StoreFactSourceVerifier implements PromptFactSourceVerifier {
  constructor(private readonly o: StoreFactSourceVerifierOptions) {}

  async verify(query: FactSourceQuery): Promise<FactSourceAnswer[]> {
    const account = await this.o.users.findById(query.userId);
    const records = query.claims.filter((c) => c.key.startsWith("past-record:"));
    const history = records.length ? await this.o.history.recentFor(query.userId, HISTORY_READ) : [];
    return query.claims.flatMap((claim): FactSourceAnswer[] => {
      if (claim.key.startsWith("past-record:")) return [recordClaim(claim, history)];
      if (account === undefined)
        return claim.key === "request.subject"
          ? [{ factId: claim.factId, outcome: "NO_RECORD", detail: "the account no longer exists" }]
          : [];
      const judged = accountClaim(claim, account, query.capturedAt);
      return judged ? [judged] : [];
    });
  }
}
