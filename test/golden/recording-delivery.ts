import type { OneTimeTokenDelivery, OneTimeTokenMessage } from "@keyward/core/ports";

/** How long a delivery may take after the answer that caused it (it is normally there already). */
const DELIVERY_WAIT_MS = 5_000;

/**
 * The demo's OneTimeTokenDelivery in the golden runs: keeps each message (the fields the outbox file
 * would get) in memory, in delivery order. The platform hands a message over just after its answer
 * (`setImmediate`), so a reader waits briefly instead of racing an asynchronous file append.
 */
export class RecordingDelivery implements OneTimeTokenDelivery {
  readonly messages: OneTimeTokenMessage[] = [];
  private readonly read = new Set<number>();

  async deliver(message: OneTimeTokenMessage): Promise<void> {
    this.messages.push({ ...message });
  }

  /** Marks every message so far as read, once none has arrived for three 10 ms ticks. */
  async skipPending(): Promise<void> {
    for (let quiet = 0, seen = this.messages.length; quiet < 3; ) {
      await new Promise((r) => setTimeout(r, 10));
      quiet = this.messages.length === seen ? quiet + 1 : 0;
      seen = this.messages.length;
    }
    for (let i = 0; i < this.messages.length; i++) this.read.add(i);
  }

  /** The first unread message for `username` (and `channel`), marked read; waits for its delivery. */
  async next(username: string, channel?: string): Promise<OneTimeTokenMessage> {
    const deadline = Date.now() + DELIVERY_WAIT_MS;
    for (;;) {
      for (const [i, m] of this.messages.entries()) {
        if (this.read.has(i) || m.username !== username) continue;
        if (channel !== undefined && m.channel !== channel) continue;
        this.read.add(i);
        return m;
      }
      if (Date.now() > deadline) throw new Error(`no delivery for ${username} ${channel ?? ""}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}
