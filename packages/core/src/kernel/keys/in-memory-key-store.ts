import type { KeyStore, StoredKey } from "./key-store.js";

/**
 * The default KeyStore: a map in this process. Keys die with it, so a platform on this store makes a
 * new JWT key and device-cookie secret at each start (the KeyRing warns); use a durable store (the
 * MongoDB adapter) to keep them across restarts and share them between instances.
 */
export class InMemoryKeyStore implements KeyStore {
  readonly durable = false;
  private readonly rings = new Map<string, StoredKey[]>();

  async keys(purpose: string, now: number): Promise<StoredKey[]> {
    const ring = this.ring(purpose);
    const active = ring.filter((k) => k.retiredAt === undefined);
    const retired = ring
      .filter((k) => k.retiredAt !== undefined && (k.verifyUntil ?? 0) > now)
      .sort((a, b) => (b.retiredAt ?? 0) - (a.retiredAt ?? 0));
    return [...active, ...retired].map((k) => ({ ...k }));
  }

  async activeOrCreate(candidate: StoredKey): Promise<StoredKey> {
    const ring = this.ring(candidate.purpose);
    const active = ring.find((k) => k.retiredAt === undefined);
    if (active) return { ...active };
    if (ring.some((k) => k.kid === candidate.kid)) {
      throw new Error(`Key ${candidate.kid} of ${candidate.purpose} exists already`);
    }
    const stored = { ...candidate, retiredAt: undefined, verifyUntil: undefined };
    ring.push(stored);
    return { ...stored };
  }

  async rotate(
    purpose: string,
    currentKid: string,
    next: StoredKey,
    retire: { at: number; verifyUntil: number },
  ): Promise<boolean> {
    const ring = this.ring(purpose);
    const at = ring.findIndex((k) => k.kid === currentKid && k.retiredAt === undefined);
    if (at === -1 || ring.some((k) => k.kid === next.kid)) return false;
    ring[at] = { ...ring[at]!, retiredAt: retire.at, verifyUntil: retire.verifyUntil };
    ring.push({ ...next, purpose, retiredAt: undefined, verifyUntil: undefined });
    return true;
  }

  private ring(purpose: string): StoredKey[] {
    let ring = this.rings.get(purpose);
    if (!ring) {
      ring = [];
      this.rings.set(purpose, ring);
    }
    return ring;
  }
}
