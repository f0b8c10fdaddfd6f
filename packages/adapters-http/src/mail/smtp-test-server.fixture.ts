// Test-only: a real SMTP server (smtp-server) on an ephemeral port that keeps what it receives, and
// can refuse recipients or require a password. Not built into the package (a `.fixture.ts`).
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** One message the server accepted: the envelope and the raw data, headers and bodies decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The raw message with quoted-printable soft breaks and escapes undone (what a reader sees). */
  decoded: string;
}

/** A started test SMTP server. */
export interface TestSmtpServer {
  port: number;
  received: ReceivedMail[];
  /** Recipients refused with 550 (compared lower-cased). */
  refuse: Set<string>;
  /** Resolves once `n` messages were received in all. */
  waitFor(n: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/** Starts a plain-text SMTP server (no STARTTLS offered); with `auth`, only that user and password may send. */
export async function startTestSmtpServer(auth?: {
  user: string;
  password: string;
}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const refuse = new Set<string>();
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    logger: false,
    // No reverse DNS of 127.0.0.1 per connection (it costs each test a few hundred milliseconds).
    disableReverseLookup: true,
    disabledCommands: auth ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    allowInsecureAuth: true,
    authOptional: !auth,
    onAuth(a, _session, callback) {
      if (auth && a.username === auth.user && a.password === auth.password)
        callback(null, { user: a.username });
      else callback(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, callback) {
      // The refusal echoes the address lower-cased, as real servers do (the delivery must redact it anyway).
      const lower = address.address.toLowerCase();
      if (refuse.has(lower)) callback(new Error(`<${lower}>: Mailbox unavailable`));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const from = session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address;
        received.push({
          from,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          decoded: decodeQp(raw),
        });
        for (const w of waiters.splice(0)) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    refuse,
    async waitFor(n) {
      const deadline = Date.now() + 5_000;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} mails, got ${received.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decodeQp(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
