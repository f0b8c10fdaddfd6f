/** Users tracked at most; the least recently denied is forgotten first. */
const MAX_USERS = 100_000;

/**
 * Counts denials per user in a sliding window; the `threshold`-th denial within `windowMs` answers
 * the count and starts the user's window afresh (one event per burst), every other denial answers
 * undefined.
 */
export class DenialCounter {
  private readonly byUser = new Map<string, number[]>();

  constructor(private readonly o: { threshold: number; windowMs: number }) {}

  /** Records a denial of `user` at `at`; the count when it reaches the threshold, else undefined. */
  deny(user: string, at: number): number | undefined {
    const times = (this.byUser.get(user) ?? []).filter((t) => t > at - this.o.windowMs);
    times.push(at);
    this.byUser.delete(user);
    if (times.length >= this.o.threshold) return times.length;
    this.byUser.set(user, times);
    if (this.byUser.size > MAX_USERS) this.byUser.delete(this.byUser.keys().next().value!);
    return undefined;
  }
}
