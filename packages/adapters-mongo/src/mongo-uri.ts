/** The driver timeouts mongoPlugin decides for a client it owns. */
export type OwnedClientTimeout = "serverSelectionTimeoutMS" | "connectTimeoutMS" | "socketTimeoutMS";

/** Connection-string options the plugin sets on a client it owns, unless the string sets them itself. */
export const OWNED_CLIENT_DEFAULTS: Readonly<Record<OwnedClientTimeout, number>> = {
  /** A request with no reachable server answers 503 after 3 s (the driver's default waits 30 s). */
  serverSelectionTimeoutMS: 3_000,
  /** A TCP/TLS connect that hangs gives up after 3 s (default 30 s). */
  connectTimeoutMS: 3_000,
  /** A server that accepted a command and stopped answering fails it after 10 s (default: never). */
  socketTimeoutMS: 10_000,
};

const URI = /^(mongodb(?:\+srv)?):\/\/(?:[^/]*@)?([^/?]*)(?:\/([^?]*))?(?:\?(.*))?$/;

/** The database named in a connection string's path, else `platform`. */
export function dbNameOf(uri: string): string {
  const path = URI.exec(uri)?.[3];
  return path ? decodeURIComponent(path) : "platform";
}

/**
 * `<hosts>/<db>` of a connection string, for logs and start-up lines: user, password and options
 * (which may carry credentials too) left out. A string that does not parse says so, never itself.
 */
export function describeMongoUri(uri: string, dbName = dbNameOf(uri)): string {
  const hosts = URI.exec(uri)?.[2];
  return hosts ? `${hosts}/${dbName}` : `(unparsable connection string)/${dbName}`;
}

/** The client options of {@link OWNED_CLIENT_DEFAULTS} the connection string does not set (names compare case-insensitively, as the driver's). */
export function ownedClientOptions(uri: string): Partial<Record<OwnedClientTimeout, number>> {
  const query = URI.exec(uri)?.[4] ?? "";
  const given = new Set(
    query
      .split("&")
      .map((pair) => pair.split("=")[0]?.toLowerCase() ?? "")
      .filter((name) => name !== ""),
  );
  const options: Partial<Record<OwnedClientTimeout, number>> = {};
  for (const [name, value] of Object.entries(OWNED_CLIENT_DEFAULTS) as [OwnedClientTimeout, number][])
    if (!given.has(name.toLowerCase())) options[name] = value;
  return options;
}
