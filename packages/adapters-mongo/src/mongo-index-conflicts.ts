import { PlatformError } from "@keyward/core/errors";
import { type Db, MongoServerError } from "mongodb";
import { DUPLICATE_KEY } from "./mongo-errors.js";

/** `createIndexes` refusals: same index under other options or name (85), same name on another key (86). */
const INDEX_CONFLICT_CODES: ReadonlySet<number> = new Set([85, 86]);

/**
 * `db` as a store sees it, noting the collections it opens (stores open theirs in the constructor):
 * so an index conflict at start can name the collection without each store saying it.
 */
export function collectionRecordingDb(db: Db, collections: Set<string>): Db {
  return new Proxy(db, {
    get(target, property) {
      if (property === "collection") {
        return (name: string, options?: object) => {
          collections.add(name);
          return target.collection(name, options);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * The start-up error for a store whose `ensureIndexes()` the server refused because of what is in the
 * database already (an index of the same name with other options or keys, the same key under another
 * name, documents that break a unique index), naming the collection, the index and the remedy; else
 * `undefined` (the error is something else).
 */
export function indexConflictError(
  error: unknown,
  collections: readonly string[],
): PlatformError | undefined {
  if (!(error instanceof MongoServerError)) return undefined;
  const code = Number(error.code);
  if (!INDEX_CONFLICT_CODES.has(code) && code !== DUPLICATE_KEY) return undefined;
  const where =
    collections.length === 1
      ? `collection "${collections[0]}"`
      : `collections ${collections.map((c) => `"${c}"`).join(", ")}`;
  const index = indexNameIn(error.message);
  const named = index ? `index "${index}"` : "an index";
  const message =
    code === DUPLICATE_KEY
      ? `MongoDB ${where}: ${named} cannot be created because existing documents break its unique key; ` +
        "remove the duplicates (the server's message names the key), then start again"
      : `MongoDB ${where}: ${named} conflicts with an existing index (same name with other options or keys, or the same key under another name); ` +
        `drop the existing index (db.<collection>.dropIndex("<name>")) and start again: the platform creates the one it needs`;
  return new PlatformError("CONFIGURATION_INVALID", message, {
    details: { collections, ...(index ? { index } : {}), serverCode: code, serverMessage: error.message },
    cause: error,
  });
}

/** The index the server's message names: the requested one, the existing one of another name, or the unique one. */
function indexNameIn(message: string): string | undefined {
  return (
    /Requested index: \{.*?name: "([^"]+)"/.exec(message)?.[1] ??
    /different name: ([^\s,]+)/.exec(message)?.[1] ??
    /index: (\S+) dup key/.exec(message)?.[1]
  );
}
