// Counts the commands a MongoClient sends (its command monitoring), for round-trip assertions in tests.
import type { CommandStartedEvent, MongoClient } from "mongodb";

/** Commands that are connection upkeep, not work a request asked for (handshake, auth, session clean-up). */
const UPKEEP = new Set(["hello", "ismaster", "saslstart", "saslcontinue", "endsessions", "ping"]);

/** What {@link countCommands} gives. */
export interface CommandCounter {
  /** Runs `run` and returns the names of the commands the client started meanwhile, in order. */
  during(run: () => Promise<unknown>): Promise<string[]>;
  /** As `during`, each entry `"<command> <collection>"` (e.g. `"find sessions"`): what a docs table lists. */
  trace(run: () => Promise<unknown>): Promise<string[]>;
  /** Stops listening. */
  stop(): void;
}

/**
 * Listens to `client`'s `commandStarted` events; the client must be created with
 * `monitorCommands: true`. Heartbeats are not commands of the client (they are SDAM events); the
 * handshake and other upkeep commands are left out, so a count is the work a request caused.
 */
export function countCommands(client: MongoClient): CommandCounter {
  let current: { names: string[]; traced: string[] } | undefined;
  const listener = (event: CommandStartedEvent) => {
    if (UPKEEP.has(event.commandName.toLowerCase()) || !current) return;
    current.names.push(event.commandName);
    const target = event.command[event.commandName];
    current.traced.push(typeof target === "string" ? `${event.commandName} ${target}` : event.commandName);
  };
  const record = async (run: () => Promise<unknown>) => {
    const seen = { names: [] as string[], traced: [] as string[] };
    current = seen;
    try {
      await run();
    } finally {
      current = undefined;
    }
    return seen;
  };
  client.on("commandStarted", listener);
  return {
    during: async (run) => (await record(run)).names,
    trace: async (run) => (await record(run)).traced,
    stop: () => {
      client.off("commandStarted", listener);
    },
  };
}
