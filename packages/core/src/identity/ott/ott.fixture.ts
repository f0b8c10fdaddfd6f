import { ManualClock } from "../../kernel/clock.js";
import { servedByIdentity } from "../identity-error-catalog.test-support.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { HttpExchange } from "../../web/http-exchange.js";
import type { Authentication } from "../authentication/authentication.js";
import type { SecurityContextRepository } from "../context/security-context-repository.js";
import { setCsrfToken } from "../csrf/csrf-token.js";
import type { LoginContext } from "../handlers/authentication-handlers.js";
import {
  SessionAuthenticationFailureHandler,
  SessionAuthenticationSuccessHandler,
} from "../handlers/session-handlers.js";
import { InMemoryLoginThrottle } from "../throttle/in-memory-login-throttle.js";
import type { LoginThrottleLimits } from "../throttle/login-throttle.js";
import { InMemoryUserRepository } from "../users/in-memory-user-repository.js";
import { createOttRoutes, type OttRoutesOptions } from "./create-ott-routes.js";
import { chainRoutesRunner } from "../chain/chain-routes.test-support.js";
import { DeliveringGenerationSuccessHandler } from "./delivering-generation-success-handler.js";
import { InMemoryOneTimeTokenService } from "./in-memory-one-time-token-service.js";
import { InMemoryOttGenerationLimiter } from "./in-memory-ott-generation-limiter.js";
import { magicLinkFor } from "./magic-link.js";
import type { OneTimeTokenDelivery, OneTimeTokenMessage } from "./one-time-token-delivery.js";
import type { OttGenerationLimits } from "./ott-generation-limiter.js";

/** The attacker's address (the fixture's default). */
export const CLIENT_IP = "203.0.113.66";

/** A SecurityContextRepository that remembers what was saved. */
export class RecordingContextRepository implements SecurityContextRepository {
  readonly name = "recording";
  readonly saved: Authentication[] = [];
  async load(): Promise<Authentication | undefined> {
    return this.saved.at(-1);
  }
  async save(_exchange: HttpExchange, authentication: Authentication): Promise<void> {
    this.saved.push(authentication);
  }
  async clear(): Promise<void> {}
}

/** A delivery that keeps every message (and can be told to fail). */
export class RecordingDelivery implements OneTimeTokenDelivery {
  readonly messages: OneTimeTokenMessage[] = [];
  failWith: Error | undefined;
  async deliver(message: OneTimeTokenMessage): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.messages.push(message);
  }
}

/** Options of `ottFixture`. */
export interface OttFixtureOptions {
  limits?: Partial<OttGenerationLimits>;
  throttle?: Partial<LoginThrottleLimits>;
  override?: Partial<OttRoutesOptions>;
}

/** A request as the tests send it. */
export interface RequestInit {
  /** A JSON body (serialised) or a form body (an object of strings, urlencoded) or raw text. */
  json?: unknown;
  form?: Record<string, string>;
  raw?: { contentType: string; body: string };
  ip?: string;
  /** Ask for JSON (Accept: application/json); forms default to a browser's Accept. */
  headers?: Record<string, string>;
}

/**
 * The OTT routes over in-memory adapters with a ManualClock, a recording delivery and repository,
 * the session handlers, and accounts `Alice` (ROLE_USER), `locked` and `disabled`.
 */
export async function ottFixture(options: OttFixtureOptions = {}) {
  const clock = new ManualClock();
  const ids = new CryptoIdGenerator();
  const users = new InMemoryUserRepository({ ids, clock });
  const alice = await users.create({ username: "Alice", authorities: ["ROLE_USER"] });
  await users.create({ username: "locked", locked: true });
  await users.create({ username: "disabled", enabled: false });
  const audit = new InMemoryAuditSink(10_000, clock);
  const tokenService = new InMemoryOneTimeTokenService({ clock, ids });
  const limiter = new InMemoryOttGenerationLimiter({ clock, ...options.limits });
  const throttle = new InMemoryLoginThrottle({ clock, ...options.throttle });
  const delivery = new RecordingDelivery();
  const handler = new DeliveringGenerationSuccessHandler({
    delivery,
    linkFor: magicLinkFor({ baseUrl: "http://localhost:8080", submitPageUrl: "/login/ott" }),
    submitPageUrl: "/login/ott",
    clock,
    audit,
  });
  const repository = new RecordingContextRepository();
  const context: LoginContext = {
    chainId: "ott",
    loginPage: "/login/ott",
    defaultSuccessUrl: undefined,
    alwaysUseDefaultSuccessUrl: false,
    failureUrl: undefined,
  };
  const routes = createOttRoutes({
    generateUrl: "/ott/generate",
    submitPageUrl: "/login/ott",
    showSubmitPage: true,
    loginProcessingUrl: "/login/ott",
    tokenService,
    generationSuccessHandler: handler,
    limiter,
    throttle,
    users,
    clock,
    audit,
    repository,
    successHandler: new SessionAuthenticationSuccessHandler(async () => undefined),
    failureHandler: new SessionAuthenticationFailureHandler(),
    context,
    csrfEnabled: true,
    ...options.override,
  });

  /** Runs an exchange through the chain's routes; `fellThrough` reports that none took it. */
  const run = chainRoutesRunner(routes);
  const send = (method: string, url: string, init: RequestInit = {}): Promise<HttpExchange> =>
    run(request(method, url, init)).then((r) => r.exchange);
  /** Asks for a token for `username` and returns the delivered value (after delivery settles). */
  const tokenFor = async (username: string, ip = CLIENT_IP): Promise<string> => {
    const before = delivery.messages.length;
    await send("POST", "/ott/generate", { json: { username }, ip });
    await handler.whenIdle();
    const message = delivery.messages.at(-1);
    if (!message || delivery.messages.length === before)
      throw new Error(`no token was delivered for ${username}`);
    return message.token;
  };
  return {
    clock,
    users,
    alice,
    audit,
    tokenService,
    limiter,
    throttle,
    delivery,
    handler,
    repository,
    routes,
    run,
    send,
    tokenFor,
  };
}

/** Builds an exchange; a CSRF token (`csrf-value`) is available to pages, as the CsrfFilter would make it. */
export function request(method: string, url: string, init: RequestInit = {}): HttpExchange {
  let body: string | undefined;
  const headers: Record<string, string> = {};
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers["content-type"] = "application/json";
  } else if (init.form) {
    body = new URLSearchParams(init.form).toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
    headers.accept = "text/html,application/xhtml+xml";
  } else if (init.raw) {
    body = init.raw.body;
    headers["content-type"] = init.raw.contentType;
  }
  const exchange = servedByIdentity(
    new HttpExchange({
      method,
      url,
      headers: { ...headers, ...init.headers },
      remoteAddress: init.ip ?? CLIENT_IP,
      readBody: body === undefined ? undefined : async () => body,
    }),
  );
  setCsrfToken(exchange, {
    headerName: "X-CSRF-TOKEN",
    parameterName: "_csrf",
    value: async () => "csrf-value",
  });
  return exchange;
}

/** Everything a client can observe of an answer: status, headers, body and cookies. */
export function observable(exchange: HttpExchange) {
  const headers = Object.fromEntries(
    [...exchange.response.headers].filter(([name]) => name !== "x-correlation-id"),
  );
  return {
    status: exchange.response.status,
    committed: exchange.response.committed,
    headers,
    body: exchange.response.body,
    cookies: exchange.response.cookies,
  };
}
