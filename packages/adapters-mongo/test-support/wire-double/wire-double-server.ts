// TEST DOUBLE, NOT A DATABASE. An in-process MongoDB wire-protocol server for tests: the real
// `mongodb` driver connects to it, and it answers the commands the adapters send from process
// memory. It is not MongoDB: see README.md beside it for what it implements and where it differs.
import { createServer, type Server, type Socket } from "node:net";
import { runCommand } from "./command-table.js";
import { CursorRegistry } from "./cursor-registry.js";
import { DoubleStore } from "./double-store.js";
import { completeMessageLength, encodeReply, parseMessage, WireProtocolError } from "./wire-messages.js";

/** Options of {@link startWireDouble}. */
export interface WireDoubleOptions {
  /** The clock TTL expiry is judged by, ms since the epoch (default: `Date.now`). */
  now?: () => number;
  /** How often the TTL monitor sweeps by itself (default 60 000 ms, as MongoDB; 0: only `sweepExpired()`). */
  ttlMonitorIntervalMs?: number;
}

/** A running double. */
export interface WireDouble {
  /** `mongodb://127.0.0.1:<port>/?directConnection=true`. */
  readonly uri: string;
  readonly port: number;
  /** Runs the TTL monitor now; returns how many documents expired. */
  sweepExpired(): number;
  /** Cursors still open (exhausted and killed cursors are gone). */
  openCursors(): number;
  /**
   * An outage: drops every connection and stops listening (a client sees connection refused), keeping
   * the data. `resume()` listens again on the same port, as a restarted server would.
   */
  stop(): Promise<void>;
  /** Listens again on the same port after `stop()`, with the data it had. */
  resume(): Promise<void>;
  /** Closes every connection and the listener. */
  close(): Promise<void>;
}

/** Starts a double on 127.0.0.1 and a free port. Each double has its own, empty databases. */
export async function startWireDouble(options: WireDoubleOptions = {}): Promise<WireDouble> {
  const now = options.now ?? Date.now;
  const store = new DoubleStore();
  const cursors = new CursorRegistry();
  const sockets = new Set<Socket>();
  let connections = 0;
  let responseId = 0;

  const onConnection = (socket: Socket) => {
    const connectionId = ++connections;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let pending: Buffer = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      try {
        for (
          let length = completeMessageLength(pending);
          length > 0;
          length = completeMessageLength(pending)
        ) {
          const request = parseMessage(pending.subarray(0, length));
          pending = pending.subarray(length);
          const reply = runCommand(request.command, { store, cursors, now, connectionId });
          if (!request.noReply) socket.write(encodeReply(request, ++responseId, reply));
        }
      } catch (e) {
        // A malformed message, or an answer that cannot be encoded: close the connection, as a server would.
        if (!(e instanceof WireProtocolError)) console.error("wire double: closing a connection:", e);
        socket.destroy();
      }
    });
  };
  let server = await listen(onConnection, 0);
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("wire double: no TCP address");
  const port = address.port;
  let listening = true;
  const stop = async () => {
    if (!listening) return;
    listening = false;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  const sweepExpired = () => store.everyCollection().reduce((n, c) => n + c.sweepExpired(now()), 0);
  const interval = options.ttlMonitorIntervalMs ?? 60_000;
  const monitor = interval > 0 ? setInterval(sweepExpired, interval) : undefined;
  monitor?.unref();

  return {
    uri: `mongodb://127.0.0.1:${port}/?directConnection=true`,
    port,
    sweepExpired,
    openCursors: () => cursors.size,
    stop,
    resume: async () => {
      if (listening) return;
      server = await listen(onConnection, port);
      listening = true;
    },
    close: async () => {
      if (monitor) clearInterval(monitor);
      await stop();
    },
  };
}

/** A listener on 127.0.0.1:`port` (0: a free one). */
async function listen(onConnection: (socket: Socket) => void, port: number): Promise<Server> {
  const server = createServer(onConnection);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return server;
}
