import { createHash } from "node:crypto";
import type { AuditSink } from "../../kernel/audit-sink.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { isClientError } from "../../web/exchange-error-catalog.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type { ChainRoute } from "../chain/chain-route.js";
import { correlated } from "../events/correlated.js";
import type { AuthenticationFailureHandler, LoginContext } from "../handlers/authentication-handlers.js";
import type { UserRepository } from "../users/user-repository.js";
import { usernameKey } from "../users/username-key.js";
import type { OneTimeTokenGenerationSuccessHandler } from "./one-time-token-generation-success-handler.js";
import type { OneTimeTokenService } from "./one-time-token-service.js";
import {
  auditPrincipal,
  MAX_OTT_USERNAME_LENGTH,
  recordSafely,
  tooManyAttempts,
} from "./ott-endpoint-support.js";
import type { OttGenerationLimiter } from "./ott-generation-limiter.js";
import { IDENTITY_CONTRACTS } from "../identity-contracts.js";

/** Options of the OttGenerateEndpoint. */
export interface OttGenerateEndpointOptions {
  /** `POST <url>` asks for a token (default `/ott/generate`). */
  url: string;
  tokenService: OneTimeTokenService;
  generationSuccessHandler: OneTimeTokenGenerationSuccessHandler;
  limiter: OttGenerationLimiter;
  users: UserRepository;
  /** Receives `auth.ott.generated`, `auth.ott.generation-ignored`, `-throttled`, `-rejected`; never a token. */
  audit: AuditSink;
  /** Answers a bad request (400, 413, 415) or a rate-limited one (429). */
  failureHandler: AuthenticationFailureHandler;
  context: LoginContext;
}

/**
 * Handles `POST <url>` with a `username` (form or JSON; the name is fixed): validates it (a non-empty
 * string of at most 256 characters, else 400 VALIDATION_FAILED), rate-limits per username and per
 * address (429 TOO_MANY_ATTEMPTS), then looks the account up. For a usable account it generates a token
 * and calls the success handler's `handle`; for an unknown, locked or disabled one it generates nothing
 * and calls `acknowledge`, which answers identically.
 *
 * Both branches do the same shape of work (one user lookup, one hash, one await, one answer) so their
 * timing differs by microseconds. Limits: a token service whose `generate` is slow (a database insert)
 * adds its latency to the known-account branch only, and a success handler that delivers before it
 * answers adds the delivery's; the built-in service is in memory and the built-in handler delivers after
 * answering. Network jitter hides microseconds; it does not hide a database round-trip.
 */
export class OttGenerateEndpoint {
  constructor(private readonly options: OttGenerateEndpointOptions) {}

  /** `POST <url>`. */
  routes(): ChainRoute[] {
    return [
      {
        method: "POST",
        path: this.options.url,
        name: "identity.ott.generate",
        meta: { contract: IDENTITY_CONTRACTS.ottGenerate },
        description: "Asks for a one-time sign-in link for a username (same answer for unknown ones)",
        feature: "identity.ott",
        access: "public",
        handler: (exchange) => this.handle(exchange),
      },
    ];
  }

  /** Validates, rate-limits and answers one generation request. */
  async handle(exchange: HttpExchange): Promise<void> {
    const o = this.options;
    const remoteAddress = exchange.remoteAddress;
    let username: string;
    try {
      username = await this.admit(exchange);
    } catch (error) {
      if (!isClientError(error, exchange)) throw error;
      await o.failureHandler.onFailure(exchange, error, o.context);
      return;
    }
    const user = await o.users.findByUsername(username);
    if (user?.enabled && !user.locked) {
      const token = await o.tokenService.generate({ username: user.username });
      recordSafely(o.audit, {
        type: "auth.ott.generated",
        outcome: "success",
        principal: user.username,
        remoteAddress,
        ...correlated(exchange),
        data: { userId: user.id, expiresAt: token.expiresAt },
      });
      await o.generationSuccessHandler.handle(exchange, token);
      return;
    }
    await decoyWork(username);
    recordSafely(o.audit, {
      type: "auth.ott.generation-ignored",
      outcome: "info",
      principal: username,
      remoteAddress,
      ...correlated(exchange),
      data: { reason: !user ? "UNKNOWN_USER" : user.locked ? "ACCOUNT_LOCKED" : "ACCOUNT_DISABLED" },
    });
    await o.generationSuccessHandler.acknowledge(exchange);
  }

  /** The validated username of an admitted request; throws the client error otherwise (audited). */
  private async admit(exchange: HttpExchange): Promise<string> {
    const o = this.options;
    const remoteAddress = exchange.remoteAddress;
    let submitted: unknown;
    let username: string;
    try {
      submitted = (await exchange.fields(["form", "json"])).username;
      username = requireUsername(submitted);
    } catch (error) {
      recordSafely(o.audit, {
        type: "auth.ott.generation-rejected",
        outcome: "failure",
        principal: auditPrincipal(submitted),
        remoteAddress,
        ...correlated(exchange),
        data: { reason: isClientError(error, exchange) ? error.code : "INTERNAL_ERROR" },
      });
      throw error;
    }
    const verdict = await o.limiter.acquire({ username, remoteAddress });
    if (!verdict.allowed) {
      const error = tooManyAttempts("Too many sign-in link requests; try again later", verdict.retryAfterMs);
      recordSafely(o.audit, {
        type: "auth.ott.generation-throttled",
        outcome: "denied",
        principal: username,
        remoteAddress,
        ...correlated(exchange),
        data: { scope: verdict.scope, retryAfterSeconds: error.details?.retryAfterSeconds },
      });
      throw error;
    }
    return username;
  }
}

/** The username if it is a non-empty string of at most 256 characters; else VALIDATION_FAILED. */
function requireUsername(value: unknown): string {
  if (typeof value !== "string" || value.length > MAX_OTT_USERNAME_LENGTH || usernameKey(value) === "") {
    throw new PlatformError("VALIDATION_FAILED", "username is required", {
      details: { fields: ["username"] },
    });
  }
  return value;
}

/** Stands in for `generate` when no token is made: one hash and one await, like the in-memory service. */
async function decoyWork(username: string): Promise<void> {
  await Promise.resolve(createHash("sha256").update(username, "utf8").digest("base64url"));
}
