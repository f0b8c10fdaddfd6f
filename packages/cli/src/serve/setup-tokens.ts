import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { KeyStore, StoredKey } from "@keyward/core/ports";

/** The key-store purpose the setup token is kept under: one live record per store. */
export const SETUP_TOKEN_PURPOSE = "platform.setup-token";

/** How long a setup token can be spent after it was made (one hour); a later start makes a new one. */
export const SETUP_TOKEN_TTL_MS = 60 * 60_000;

/** Longest token the endpoint reads (a real one is 43 characters): anything longer is simply wrong. */
export const MAX_SETUP_TOKEN_LENGTH = 128;

/** The record of a token that can still be spent (its material is the token's SHA-256, never the token). */
const LIVE = "setup-token-sha256";
/** The record that replaces a spent token: nothing can match it. */
const SPENT = "setup-token-spent";

/** What a start got: the token it made (printed once, by it), or the live one another start made. */
export type SetupTokenIssue =
  | { readonly kind: "made"; readonly token: string; readonly expiresAt: number }
  | { readonly kind: "live"; readonly expiresAt: number };

/** What SetupTokens needs: the store every instance shares and the platform's clock. */
export interface SetupTokensOptions {
  store: KeyStore;
  now: () => number;
}

/**
 * The first administrator's one-time setup token, kept in the KeyStore (the platform's store of
 * shared secrets, in memory or MongoDB) under SETUP_TOKEN_PURPOSE, whose "one active key per purpose,
 * decided by one atomic step" is exactly "one token per empty store". Only the token's SHA-256 is
 * stored. A token is live for SETUP_TOKEN_TTL_MS after it was made; spending it replaces it, in one
 * compare-and-set, with a record nothing matches, so two requests with one token cannot both win.
 */
export class SetupTokens {
  constructor(private readonly o: SetupTokensOptions) {}

  /**
   * Makes the store's setup token unless a live one exists: the first of several instances starting
   * together makes it (`made`, with the token to print), the others see it `live`. An expired or spent
   * record is replaced, again by one atomic step.
   */
  async issue(): Promise<SetupTokenIssue> {
    for (let attempt = 0; ; attempt++) {
      const now = this.o.now();
      const token = randomBytes(32).toString("base64url");
      const candidate = liveRecord(token, now);
      let current = await this.current(now);
      if (current === undefined) {
        current = await this.o.store.activeOrCreate(candidate);
        if (current.kid === candidate.kid) return { kind: "made", token, expiresAt: expiryOf(current) };
      }
      if (isLive(current, now)) return { kind: "live", expiresAt: expiryOf(current) };
      const retire = { at: now, verifyUntil: now };
      if (await this.o.store.rotate(SETUP_TOKEN_PURPOSE, current.kid, candidate, retire)) {
        return { kind: "made", token, expiresAt: expiryOf(candidate) };
      }
      // Another instance replaced it first: read again (its token is live now). Bounded, never a spin.
      if (attempt >= 3) throw new Error("The setup token kept changing while this start read it");
    }
  }

  /**
   * What the store holds now, in one read: a token that can be spent (`live`), a spent one whose
   * record no start has replaced yet (`spent`: setup happened), or nothing usable (`none`: never made,
   * or expired).
   */
  async state(): Promise<"live" | "spent" | "none"> {
    const now = this.o.now();
    const current = await this.current(now);
    if (current?.algorithm === SPENT) return "spent";
    return current !== undefined && isLive(current, now) ? "live" : "none";
  }

  /**
   * True when `token` is the store's live token now (compared in constant time); spends nothing. The
   * setup route asks this before it makes the account, and spends the token after.
   */
  async isLive(token: string): Promise<boolean> {
    if (token.length === 0 || token.length > MAX_SETUP_TOKEN_LENGTH) return false;
    const now = this.o.now();
    const current = await this.current(now);
    return current !== undefined && isLive(current, now) && matches(token, current.material);
  }

  /**
   * Spends `token` once: true when it is the store's live token (compared in constant time) and this
   * call replaced it; false for any other token, an expired or spent one, or a lost race.
   */
  async spend(token: string): Promise<boolean> {
    if (token.length === 0 || token.length > MAX_SETUP_TOKEN_LENGTH) return false;
    const now = this.o.now();
    const current = await this.current(now);
    if (current === undefined || !isLive(current, now) || !matches(token, current.material)) return false;
    const spent: StoredKey = {
      purpose: SETUP_TOKEN_PURPOSE,
      kid: `spent-${randomBytes(12).toString("hex")}`,
      algorithm: SPENT,
      material: "",
      createdAt: now,
    };
    return this.o.store.rotate(SETUP_TOKEN_PURPOSE, current.kid, spent, { at: now, verifyUntil: now });
  }

  /** The purpose's active record, if any (retired ones are listed after it; they never count). */
  private async current(now: number): Promise<StoredKey | undefined> {
    const [first] = await this.o.store.keys(SETUP_TOKEN_PURPOSE, now);
    return first !== undefined && first.retiredAt === undefined ? first : undefined;
  }
}

function liveRecord(token: string, now: number): StoredKey {
  return {
    purpose: SETUP_TOKEN_PURPOSE,
    kid: `setup-${randomBytes(12).toString("hex")}`,
    algorithm: LIVE,
    material: digest(token).toString("base64url"),
    createdAt: now,
  };
}

function isLive(record: StoredKey, now: number): boolean {
  return record.algorithm === LIVE && now < expiryOf(record);
}

function expiryOf(record: StoredKey): number {
  return record.createdAt + SETUP_TOKEN_TTL_MS;
}

function digest(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

/** Both sides are 32-byte digests, so the comparison takes the same time wherever they differ. */
function matches(token: string, material: string): boolean {
  const stored = Buffer.from(material, "base64url");
  const presented = digest(token);
  return stored.length === presented.length && timingSafeEqual(stored, presented);
}
