import type { UserAccount } from "../../identity/users/user-account.js";
import type { UserRepository } from "../../identity/users/user-repository.js";
import type { Clock } from "../../kernel/clock.js";
import {
  type PastRecordInput,
  type PromptInput,
  parsePromptInput,
} from "../../prompts/input/prompt-input.js";
import { classifyNetwork } from "../../prompts/vocabulary/vocabulary.js";
import type { DecisionHistoryRecord, DecisionHistoryStore } from "../history/decision-history-store.js";
import type { DecisionEvent } from "./decision-event.js";

const DAY_MS = 86_400_000;
const MAX_TEXT = 512;
const MAX_LIST = 64;

/** The user an event is about, and the context built for it. */
export interface BuiltContext {
  readonly account: UserAccount;
  readonly input: PromptInput;
}

/**
 * The PIP of the pipeline: builds the canonical context (PromptInput) of an event from the
 * UserRepository (username, roles = ROLE_* authorities, permissions = the other authorities, account
 * age), the event (time, method, target, address, device, session handle) and the user's past
 * decisions from the DecisionHistoryStore. A fact the event should carry and does not (address,
 * device) is named in `markedMissing`, so the layouts say "missing" rather than "not applicable".
 * Undefined when the event names no known user.
 */
export class DecisionContextBuilder {
  constructor(
    private readonly o: {
      users: Pick<UserRepository, "findById" | "findByUsername">;
      history: DecisionHistoryStore;
      clock: Clock;
      /** Past records carried (0..256). */
      historyLimit: number;
    },
  ) {}

  /** The account the event is about (by id, else by username). */
  async accountOf(event: DecisionEvent): Promise<UserAccount | undefined> {
    if (event.userId !== undefined) return this.o.users.findById(event.userId);
    if (event.username !== undefined) return this.o.users.findByUsername(event.username);
    return undefined;
  }

  /** The context of `event` about `account`. */
  async build(event: DecisionEvent, account: UserAccount): Promise<PromptInput> {
    const network =
      event.remoteAddress !== undefined && classifyNetwork(event.remoteAddress) !== undefined
        ? event.remoteAddress
        : undefined;
    const past =
      this.o.historyLimit > 0 ? await this.o.history.recentFor(account.id, this.o.historyLimit) : [];
    const roles = account.authorities.filter((a) => a.startsWith("ROLE_"));
    const permissions = account.authorities.filter((a) => !a.startsWith("ROLE_"));
    const markedMissing = [
      ...(network === undefined ? ["request.network"] : []),
      ...(!event.device ? ["request.device"] : []),
    ];
    return parsePromptInput({
      eventId: clip(event.id),
      request: {
        subject: clip(account.username),
        time: new Date(event.at).toISOString(),
        roles: roles.slice(0, MAX_LIST).map(clip),
        permissions: permissions.slice(0, MAX_LIST).map(clip),
        ...present("method", event.method),
        ...present("target", event.target),
        ...(network === undefined ? {} : { network }),
        ...present("device", event.device),
      },
      identity: {
        accountAgeDays: Math.max(0, Math.floor((this.o.clock.now() - account.createdAt) / DAY_MS)),
      },
      context: {
        coverage: ["identity", "request", ...(past.length > 0 ? ["past records"] : [])],
      },
      pastRecords: past.map(pastRecordOf),
      markedMissing,
    });
  }
}

/**
 * The input with the event's own line first in `context.evidence` (`event REPEATED_DENIALS count=5`):
 * words and numbers the pipeline wrote, added after redaction since it carries no free text.
 */
export function withEventLine(input: PromptInput, event: DecisionEvent): PromptInput {
  const detail = Object.entries(event.detail ?? {}).map(([k, v]) => `${k}=${String(v)}`);
  const line = clip(["event", event.kind, ...detail].join(" "));
  const evidence = [line, ...(input.context.evidence ?? [])].slice(0, MAX_LIST);
  return { ...input, context: { ...input.context, evidence } };
}

function pastRecordOf(r: DecisionHistoryRecord): PastRecordInput {
  return {
    id: r.id,
    time: new Date(r.at).toISOString(),
    decision: r.action,
    ...(r.subject === undefined ? {} : { subject: r.subject }),
    ...(r.method === undefined ? {} : { method: r.method }),
    ...(r.target === undefined ? {} : { target: r.target }),
    ...(r.network === undefined ? {} : { network: r.network }),
    ...(r.device === undefined ? {} : { device: r.device }),
    ...(r.riskScore === undefined ? {} : { riskScore: r.riskScore }),
    ...(r.confidence === undefined ? {} : { confidence: r.confidence }),
    ...(r.outcome === undefined ? {} : { outcome: r.outcome }),
  };
}

// An empty or absent value is left out (the input's texts are never empty).
function present<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return value ? ({ [key]: clip(value) } as { [P in K]?: string }) : {};
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
}
