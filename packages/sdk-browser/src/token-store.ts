import { browserStorage, readItem, removeItem, type StorageArea, writeItem } from "./browser-storage.js";
import type { AuthenticationResult, TokenPersistence } from "./types.js";

/** The storage keys of the tokens (under the `platform_` prefix). */
export const TOKEN_KEYS = {
  accessToken: "platform_access_token",
  refreshToken: "platform_refresh_token",
  tokenExpiry: "platform_token_expiry",
  refreshExpiry: "platform_refresh_expiry",
} as const;

type TokenKey = keyof typeof TOKEN_KEYS;

/** The tokens the store holds; expiries are epoch milliseconds. */
export interface StoredTokens {
  accessToken?: string;
  refreshToken?: string;
  tokenExpiry?: number;
  refreshExpiry?: number;
}

const STORAGE_AREAS: readonly StorageArea[] = ["localStorage", "sessionStorage"];

/**
 * Keeps the tokens of an `.oauth2()` answer by `tokenPersistence`: `memory` (default: gone with the
 * page, never readable by another page), `localStorage` (survives restarts) or `sessionStorage` (this
 * tab). A blocked storage falls back to memory. Expired tokens are not handed out.
 */
export class TokenStore {
  readonly persistence: TokenPersistence;
  private memory: StoredTokens = {};
  private readonly now: () => number;

  constructor(persistence: TokenPersistence = "memory", now: () => number = Date.now) {
    if (persistence !== "memory" && persistence !== "localStorage" && persistence !== "sessionStorage") {
      throw new TypeError(`Unknown tokenPersistence ${JSON.stringify(persistence)}`);
    }
    this.persistence = persistence;
    this.now = now;
  }

  /** Stores the tokens of an answer (nothing when it carries none); true when it carried tokens. */
  persist(result: AuthenticationResult): boolean {
    const access = typeof result.accessToken === "string" ? result.accessToken : undefined;
    const refresh = typeof result.refreshToken === "string" ? result.refreshToken : undefined;
    if (!access && !refresh) return false;
    const at = this.now();
    const tokens: StoredTokens = {
      accessToken: access,
      refreshToken: refresh,
      tokenExpiry: expiry(at, result.expiresIn),
      refreshExpiry: expiry(at, result.refreshExpiresIn),
    };
    // A new answer replaces the previous tokens entirely (no stale refresh token of another sign-in).
    this.clear();
    const storage = this.storage();
    if (storage && this.writeAll(storage, tokens)) return true;
    this.memory = tokens;
    return true;
  }

  /** The access token, unless missing or expired. */
  accessToken(): string | undefined {
    const t = this.read();
    return t.accessToken && !this.expired(t.tokenExpiry) ? t.accessToken : undefined;
  }

  /** The refresh token, unless missing or expired. */
  refreshToken(): string | undefined {
    const t = this.read();
    return t.refreshToken && !this.expired(t.refreshExpiry) ? t.refreshToken : undefined;
  }

  /** Everything held, expired or not. */
  read(): StoredTokens {
    const storage = this.storage();
    if (!storage) return { ...this.memory };
    const stored: StoredTokens = {
      accessToken: readItem(storage, TOKEN_KEYS.accessToken),
      refreshToken: readItem(storage, TOKEN_KEYS.refreshToken),
      tokenExpiry: numberOrUndefined(readItem(storage, TOKEN_KEYS.tokenExpiry)),
      refreshExpiry: numberOrUndefined(readItem(storage, TOKEN_KEYS.refreshExpiry)),
    };
    return stored.accessToken || stored.refreshToken ? stored : { ...this.memory };
  }

  /** Forgets the tokens everywhere: memory and both storages. */
  clear(): void {
    this.clearMemory();
    this.clearPersisted();
  }

  /** Forgets the tokens held in memory. */
  clearMemory(): void {
    this.memory = {};
  }

  /** Removes the token keys from localStorage and sessionStorage (whatever the mode: nothing lingers). */
  clearPersisted(): void {
    for (const area of STORAGE_AREAS) {
      const storage = browserStorage(area);
      for (const key of Object.values(TOKEN_KEYS)) removeItem(storage, key);
    }
  }

  private storage(): Storage | undefined {
    return this.persistence === "memory" ? undefined : browserStorage(this.persistence);
  }

  private writeAll(storage: Storage, tokens: StoredTokens): boolean {
    for (const name of Object.keys(TOKEN_KEYS) as TokenKey[]) {
      const value = tokens[name];
      if (value === undefined) continue;
      if (!writeItem(storage, TOKEN_KEYS[name], String(value))) {
        for (const key of Object.values(TOKEN_KEYS)) removeItem(storage, key);
        return false;
      }
    }
    return true;
  }

  private expired(at: number | undefined): boolean {
    return at !== undefined && at <= this.now();
  }
}

function expiry(now: number, seconds: unknown): number | undefined {
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds > 0
    ? now + seconds * 1000
    : undefined;
}

function numberOrUndefined(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}
