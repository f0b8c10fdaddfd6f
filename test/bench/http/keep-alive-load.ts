import net from "node:net";
import { performance } from "node:perf_hooks";

/** One GET that every connection sends again and again. */
export interface LoadTarget {
  port: number;
  path: string;
  /** Extra request headers (authorization, cookie, accept). */
  headers: Readonly<Record<string, string>>;
}

/** How hard and how long. */
export interface LoadBounds {
  /** Open keep-alive connections, each with one request in flight (closed loop). */
  connections: number;
  /** Unmeasured time first (connections open, code compiled). */
  warmupMs: number;
  durationMs: number;
  /**
   * Reads the server's CPU time in µs (user + system); read when the measured window opens and when
   * it closes, so the run reports the server's CPU per answer, which other load on the machine
   * disturbs far less than requests/s.
   */
  serverCpu?: () => Promise<number>;
}

/** What one run measured: answers in the window, their latencies, and anything that was not 200. */
export interface LoadRun {
  ok: number;
  errors: number;
  /** The first non-200 answer (status and start of the body), for the report. */
  firstError?: string;
  /** The body of the first answer, to check that the route answered what it should. */
  sampleBody: string;
  elapsedMs: number;
  /** Server CPU time spent in the window, in µs (NaN without `serverCpu`). */
  serverCpuMicros: number;
  /** Latency of every measured answer, in ms. */
  latencies: Float64Array;
}

interface Answer {
  status: number;
  body: string;
}

/**
 * A closed-loop HTTP/1.1 load generator over raw sockets: `connections` keep-alive connections, each
 * sending the same prebuilt GET as soon as the previous answer is complete. It parses only what it
 * needs (status, Content-Length or chunked framing), so it costs the shared CPU far less than an HTTP
 * client would, and the ratio between routes measures the server.
 */
export async function runKeepAliveLoad(target: LoadTarget, bounds: LoadBounds): Promise<LoadRun> {
  const request = Buffer.from(
    `GET ${target.path} HTTP/1.1\r\nhost: 127.0.0.1:${target.port}\r\n` +
      Object.entries(target.headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("") +
      "\r\n",
    "latin1",
  );
  let latencies = new Float64Array(1 << 16);
  let ok = 0;
  let errors = 0;
  let firstError: string | undefined;
  let sampleBody: string | undefined;
  let measuring = false;
  let stopped = false;
  const record = (answer: Answer, ms: number): void => {
    sampleBody ??= answer.body;
    if (!measuring) return;
    if (answer.status !== 200) {
      errors++;
      firstError ??= `HTTP ${answer.status} ${answer.body.slice(0, 160)}`;
      return;
    }
    if (ok === latencies.length) {
      const bigger = new Float64Array(latencies.length * 2);
      bigger.set(latencies);
      latencies = bigger;
    }
    latencies[ok++] = ms;
  };

  const sockets: net.Socket[] = [];
  const failures: Error[] = [];
  await Promise.all(
    Array.from({ length: bounds.connections }, () =>
      openConnection(target.port, request, record, () => stopped, sockets, failures),
    ),
  );
  await sleep(bounds.warmupMs);
  const cpu0 = bounds.serverCpu ? await bounds.serverCpu() : Number.NaN;
  measuring = true;
  const start = performance.now();
  await sleep(bounds.durationMs);
  measuring = false;
  const elapsedMs = performance.now() - start;
  const serverCpuMicros = bounds.serverCpu ? (await bounds.serverCpu()) - cpu0 : Number.NaN;
  stopped = true;
  for (const socket of sockets) socket.destroy();
  if (failures.length > 0) throw failures[0];
  return {
    ok,
    errors,
    ...(firstError === undefined ? {} : { firstError }),
    sampleBody: sampleBody ?? "",
    elapsedMs,
    serverCpuMicros,
    latencies: latencies.subarray(0, ok),
  };
}

function openConnection(
  port: number,
  request: Buffer,
  record: (answer: Answer, ms: number) => void,
  stopped: () => boolean,
  sockets: net.Socket[],
  failures: Error[],
): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: "127.0.0.1", noDelay: true });
    sockets.push(socket);
    const parser = new AnswerParser();
    let sentAt = 0;
    const send = (): void => {
      sentAt = performance.now();
      socket.write(request);
    };
    socket.once("connect", () => {
      resolve();
      send();
    });
    socket.on("data", (chunk: Buffer) => {
      for (const answer of parser.push(chunk)) {
        record(answer, performance.now() - sentAt);
        if (!stopped()) send();
      }
    });
    socket.on("error", (error) => {
      if (!stopped()) failures.push(error);
      reject(error);
    });
    socket.on("close", () => {
      if (!stopped()) failures.push(new Error("the server closed a keep-alive connection"));
    });
  });
}

/** Splits a byte stream into HTTP/1.1 answers (Content-Length or chunked bodies). */
class AnswerParser {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Answer[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const answers: Answer[] = [];
    for (;;) {
      const answer = this.next();
      if (!answer) return answers;
      answers.push(answer);
    }
  }

  private next(): Answer | undefined {
    const buf = this.pending;
    const headEnd = buf.indexOf("\r\n\r\n");
    if (headEnd === -1) return undefined;
    const head = buf.toString("latin1", 0, headEnd);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    let bodyStart = headEnd + 4;
    if (length) {
      const end = bodyStart + Number(length[1]);
      if (buf.length < end) return undefined;
      this.pending = buf.subarray(end);
      return { status, body: buf.toString("utf8", bodyStart, end) };
    }
    if (!/\r\ntransfer-encoding: *chunked/i.test(head)) {
      this.pending = buf.subarray(bodyStart);
      return { status, body: "" };
    }
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = buf.indexOf("\r\n", bodyStart);
      if (lineEnd === -1) return undefined;
      const size = Number.parseInt(buf.toString("latin1", bodyStart, lineEnd), 16);
      const dataEnd = lineEnd + 2 + size;
      if (buf.length < dataEnd + 2) return undefined;
      if (size === 0) {
        this.pending = buf.subarray(dataEnd + 2);
        return { status, body: Buffer.concat(parts).toString("utf8") };
      }
      parts.push(buf.subarray(lineEnd + 2, dataEnd));
      bodyStart = dataEnd + 2;
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
