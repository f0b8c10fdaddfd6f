import type { AuditEvent, AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { isClientError } from "../../web/exchange-error-catalog.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { AttemptSerializer } from "../authentication/attempt-serializer.js";
import { type Authentication, setCurrentAuthentication, stampOf } from "../authentication/authentication.js";
import type { ChainRoute } from "../chain/chain-route.js";
import { correlated } from "../events/correlated.js";
import type { SecurityContextRepository } from "../context/security-context-repository.js";
import type {
  AuthenticationFailureHandler,
  AuthenticationSuccessHandler,
  LoginContext,
} from "../handlers/authentication-handlers.js";
import type { LoginThrottle, ThrottleKey } from "../throttle/login-throttle.js";
import { throttleAddressKey } from "../throttle/throttle-keys.js";
import type { UserRepository } from "../users/user-repository.js";
import { usernameKey } from "../users/username-key.js";
import type { OneTimeTokenService } from "./one-time-token-service.js";
import {
  auditPrincipal,
  MAX_OTT_TOKEN_LENGTH,
  MAX_OTT_USERNAME_LENGTH,
  recordSafely,
  tooManyAttempts,
} from "./ott-endpoint-support.js";
import { IDENTITY_CONTRACTS } from "../identity-contracts.js";

/** Options of the OttLoginEndpoint. */
export interface OttLoginEndpointOptions {
  /** `POST <url>` signs in with a token (default `/login/ott`). */
  url: string;
  tokenService: OneTimeTokenService;
  users: UserRepository;
  /** Counts failed submissions per address (see the class comment). */
  throttle: LoginThrottle;
  /** Stamps `authenticatedAt` and the factor. */
  clock: Clock;
  /** Receives `auth.login.success|failure|throttled` with `data.method = "ott"`; never a token. */
  audit: AuditSink;
  repository: SecurityContextRepository;
  successHandler: AuthenticationSuccessHandler;
  failureHandler: AuthenticationFailureHandler;
  context: LoginContext;
  /** Submissions from one address running or waiting at once; more get 429 at once. Default 32. */
  maxPendingAttemptsPerAddress?: number;
}

const INVALID_TOKEN_MESSAGE = "Invalid or expired sign-in link";
const TOO_MANY_MESSAGE = "Too many sign-in attempts; try again later";

/**
 * Handles `POST <url>` with a `token` and an optional `username` (form or JSON; names fixed). In order:
 * validation (a token string of at most 512 characters, a username string of at most 256; else 400
 * VALIDATION_FAILED, nothing consumed, nothing counted), the throttle, `consume`, the username binding,
 * the account. An unknown, expired or spent token and a username that is not the token's all answer 401
 * INVALID_TOKEN "Invalid or expired sign-in link" (a mismatched username spends the token: whoever sent
 * it was not sure whose it is). A locked or disabled account answers ACCOUNT_LOCKED / ACCOUNT_DISABLED,
 * told only to whoever held a valid token. Success stores the context through the chain's repository
 * (a session repository rotates the session id) and hands over to the success handler.
 *
 * Throttling reuses the LoginThrottle port with the key (`ott:<address key>`, address): failed
 * submissions count on that pair and on the address counter the password login shares, so token
 * guessing and password spraying from one address draw on one budget. Submissions from one address
 * run one at a time (AttemptSerializer), so a parallel burst cannot outrun the count; a throttled
 * submission consumes nothing.
 */
export class OttLoginEndpoint {
  private readonly serializer: AttemptSerializer;

  constructor(private readonly options: OttLoginEndpointOptions) {
    this.serializer = new AttemptSerializer(options.maxPendingAttemptsPerAddress ?? 32);
  }

  /** `POST <url>`. */
  routes(): ChainRoute[] {
    return [
      {
        method: "POST",
        path: this.options.url,
        name: "identity.ott.login",
        meta: { contract: IDENTITY_CONTRACTS.ottLogin },
        description: "Signs in with a one-time token (and optionally its username)",
        feature: "identity.ott",
        access: "public",
        handler: (exchange) => this.handle(exchange),
      },
    ];
  }

  /** Authenticates one token submission and answers through the success or failure handler. */
  async handle(exchange: HttpExchange): Promise<void> {
    const o = this.options;
    let authentication: Authentication;
    try {
      authentication = await this.authenticate(exchange);
      // Inside the try: a refusal at the sign-in checkpoint is answered like any failed sign-in.
      await o.repository.save(exchange, authentication);
    } catch (error) {
      if (!isClientError(error, exchange)) throw error;
      await o.failureHandler.onFailure(exchange, error, o.context);
      return;
    }
    setCurrentAuthentication(exchange, authentication);
    await o.successHandler.onSuccess(exchange, authentication, o.context);
  }

  private async authenticate(exchange: HttpExchange): Promise<Authentication> {
    const remoteAddress = exchange.remoteAddress;
    let submission: Submission;
    let submitted: unknown;
    try {
      const fields = await exchange.fields(["form", "json"]);
      submitted = fields.username;
      submission = validSubmission(fields.token, fields.username);
    } catch (error) {
      this.record(
        {
          type: "auth.login.failure",
          outcome: "failure",
          principal: auditPrincipal(submitted),
          remoteAddress,
          ...correlated(exchange),
        },
        {
          reason: isClientError(error, exchange) ? error.code : "INTERNAL_ERROR",
        },
      );
      throw error;
    }
    const addressKey = throttleAddressKey(remoteAddress);
    const key: ThrottleKey = { username: `ott:${addressKey}`, remoteAddress };
    const origin = { remoteAddress, ...correlated(exchange) };
    const attempt = this.serializer.run(addressKey, () => this.attempt(key, submission, origin));
    if (!attempt) {
      this.record(
        { ...origin, type: "auth.login.throttled", outcome: "denied", principal: submission.username },
        {
          scope: "pending",
          retryAfterSeconds: 1,
        },
      );
      throw tooManyAttempts(TOO_MANY_MESSAGE, 1_000);
    }
    return attempt;
  }

  private async attempt(
    key: ThrottleKey,
    submission: Submission,
    origin: Pick<AuditEvent, "remoteAddress" | "correlationId">,
  ): Promise<Authentication> {
    const o = this.options;
    const event = { ...origin, principal: submission.username };
    const fail = async (reason: string, count: boolean, error: PlatformError, data = {}): Promise<never> => {
      if (count) await o.throttle.recordFailure(key);
      this.record({ ...event, type: "auth.login.failure", outcome: "failure" }, { reason, ...data });
      throw error;
    };
    const verdict = await o.throttle.check(key);
    if (!verdict.allowed) {
      const error = tooManyAttempts(TOO_MANY_MESSAGE, verdict.retryAfterMs);
      this.record(
        { ...event, type: "auth.login.throttled", outcome: "denied" },
        {
          scope: verdict.scope,
          retryAfterSeconds: error.details?.retryAfterSeconds,
        },
      );
      throw error;
    }
    const token = await o.tokenService.consume({ tokenValue: submission.token });
    if (!token) return fail("INVALID_TOKEN", true, invalidToken());
    if (
      submission.username !== undefined &&
      usernameKey(submission.username) !== usernameKey(token.username)
    ) {
      return fail("USERNAME_MISMATCH", true, invalidToken());
    }
    const user = await o.users.findByUsername(token.username);
    // The account went away after the token was made: not a guess, so not counted.
    if (!user) return fail("UNKNOWN_USER", false, invalidToken());
    if (user.locked) {
      return fail("ACCOUNT_LOCKED", false, new PlatformError("ACCOUNT_LOCKED", "Account is locked"), {
        userId: user.id,
      });
    }
    if (!user.enabled) {
      return fail("ACCOUNT_DISABLED", false, new PlatformError("ACCOUNT_DISABLED", "Account is disabled"), {
        userId: user.id,
      });
    }
    await o.throttle.recordSuccess(key);
    const at = o.clock.now();
    this.record(
      { ...event, principal: user.username, type: "auth.login.success", outcome: "success" },
      {
        userId: user.id,
        username: user.username,
      },
    );
    return Object.freeze({
      userId: user.id,
      username: user.username,
      authorities: Object.freeze([...user.authorities]),
      method: "ott" as const,
      authenticatedAt: at,
      factors: Object.freeze([Object.freeze({ type: "otp" as const, at })]),
      ...stampOf(user),
    });
  }

  private record(event: AuditEvent, data: Record<string, unknown>): void {
    recordSafely(this.options.audit, { ...event, data: { method: "ott", ...data } });
  }
}

/** A validated submission: the token (trimmed) and the username, when one was given. */
interface Submission {
  token: string;
  username: string | undefined;
}

function invalidToken(): PlatformError {
  return new PlatformError("INVALID_TOKEN", INVALID_TOKEN_MESSAGE);
}

/**
 * Checks the fields before anything is consumed or counted. A missing, null or blank username means
 * "not given" (the SDK's `verifyOtt(code)` sends none); any other non-string is refused.
 */
function validSubmission(token: unknown, username: unknown): Submission {
  const fields: string[] = [];
  const tokenOk = typeof token === "string" && token.length <= MAX_OTT_TOKEN_LENGTH && token.trim() !== "";
  if (!tokenOk) fields.push("token");
  const usernameOk =
    username === undefined ||
    username === null ||
    (typeof username === "string" && username.length <= MAX_OTT_USERNAME_LENGTH);
  const absent = usernameOk && (typeof username !== "string" || usernameKey(username) === "");
  if (!usernameOk) fields.push("username");
  if (fields.length > 0) {
    throw new PlatformError("VALIDATION_FAILED", "A sign-in token is required", { details: { fields } });
  }
  return { token: (token as string).trim(), username: absent ? undefined : (username as string) };
}
