import type { AuditEvent, AuditSink } from "../../kernel/audit-sink.js";
import { ManualClock } from "../../kernel/clock.js";
import { CryptoIdGenerator, type IdGenerator } from "../../kernel/id-generator.js";
import type { Logger } from "../../kernel/logger.js";
import { isPlatformError } from "../../kernel/platform-error.js";
import type { Authentication } from "../authentication/authentication.js";
import { InMemoryRefreshTokenStore } from "./in-memory-refresh-token-store.js";
import { InMemoryRevokedAccessTokenStore } from "./in-memory-revoked-token-store.js";
import { type JwtAlgorithm, type JwtKeys, loadJwtKeys } from "./jwt-keys.js";
import type { RefreshTokenStore } from "./refresh-token-store.js";
import { TokenService, type TokenServiceOptions } from "./token-service.js";

/** A Logger that keeps what it is given, for assertions. */
export class RecordingLogger implements Logger {
  readonly lines: { level: string; message: string; fields: Record<string, unknown> | undefined }[] = [];
  info(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: "info", message, fields });
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: "warn", message, fields });
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: "error", message, fields });
  }
}

/** Everything a TokenService test needs, wired with a ManualClock and the in-memory stores. */
export interface TokenServiceFixture {
  service: TokenService;
  clock: ManualClock;
  keys: JwtKeys;
  refreshTokens: RefreshTokenStore;
  revokedAccessTokens: InMemoryRevokedAccessTokenStore;
  audit: AuditEvent[];
  options: TokenServiceOptions;
  /** A signed-in user (REST, password then OTP). */
  alice: Authentication;
}

/** Builds a TokenService over generated keys (or the given ones) with the documented default lifetimes. */
export async function createTokenServiceFixture(
  over: {
    algorithm?: JwtAlgorithm;
    keys?: JwtKeys;
    clock?: ManualClock;
    refreshTokens?: (clock: ManualClock) => RefreshTokenStore;
  } = {},
): Promise<TokenServiceFixture> {
  const clock = over.clock ?? new ManualClock();
  const keys =
    over.keys ?? (await loadJwtKeys({ algorithm: over.algorithm ?? "ES256", logger: new RecordingLogger() }));
  const refreshTokens = over.refreshTokens?.(clock) ?? new InMemoryRefreshTokenStore({ clock });
  const revokedAccessTokens = new InMemoryRevokedAccessTokenStore({ clock });
  const audit: AuditEvent[] = [];
  const sink: AuditSink = { record: (event) => audit.push(event) };
  let n = 0;
  const crypto = new CryptoIdGenerator();
  const ids: IdGenerator = { id: () => `id-${++n}`, secret: (bytes) => crypto.secret(bytes) };
  const options: TokenServiceOptions = {
    keys,
    issuer: "platform",
    audience: "platform-api",
    accessTokenTtlMs: 15 * 60_000,
    refreshTokenTtlMs: 7 * 86_400_000,
    clockSkewMs: 30_000,
    clock,
    ids,
    refreshTokens,
    revokedAccessTokens,
    audit: sink,
  };
  const alice: Authentication = {
    userId: "user-alice",
    username: "alice",
    authorities: ["ROLE_USER"],
    method: "rest",
    authenticatedAt: clock.now() - 5_000,
    factors: [
      { type: "pwd", at: clock.now() - 5_000 },
      { type: "otp", at: clock.now() - 1_000 },
    ],
  };
  return {
    service: new TokenService(options),
    clock,
    keys,
    refreshTokens,
    revokedAccessTokens,
    audit,
    options,
    alice,
  };
}

/** The PlatformError code a promise rejects with (or a description of what else happened). */
export async function rejectionCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return isPlatformError(error) ? error.code : `not a PlatformError: ${String(error)}`;
  }
  return "resolved";
}
