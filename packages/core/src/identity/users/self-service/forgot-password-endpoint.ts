import { z } from "zod";
import type { AuditSink } from "../../../kernel/audit-sink.js";
import type { Clock } from "../../../kernel/clock.js";
import type { Logger } from "../../../kernel/logger.js";
import { isPlatformError, PlatformError } from "../../../kernel/platform-error.js";
import { jsonAnswer } from "../../../web/contract-parts.js";
import type { HttpExchange } from "../../../web/http-exchange.js";
import type { RouteContract } from "../../../web/route-contract.js";
import { type ChainRoute, resourceRoutes } from "../../chain/chain-route.js";
import { csrfHiddenInput, csrfMetaTags } from "../../csrf/csrf-html.js";
import type { OneTimeTokenDelivery } from "../../ott/one-time-token-delivery.js";
import type { OneTimeTokenService } from "../../ott/one-time-token-service.js";
import type { OttGenerationLimiter } from "../../ott/ott-generation-limiter.js";
import type { UserRepository } from "../user-repository.js";
import { renderForgotPasswordPage } from "./forgot-password-page.js";

/** Where a user who forgot their password asks for a reset link. */
export const FORGOT_PASSWORD_PATH = "/api/password/forgot";
/** The built-in page that asks for it (its form posts to the same path). */
export const FORGOT_PASSWORD_PAGE_PATH = "/forgot-password";
/** The delivery channel of a self-service reset link (the mail says the user asked for it). */
export const PASSWORD_FORGOT_CHANNEL = "password-forgot";
/** Longest username looked at; a longer one is refused before anything happens. */
const MAX_USERNAME_LENGTH = 256;

/** The one answer, whatever the name: nothing tells whether the account exists or was sent a link. */
const ACCEPTED = Object.freeze({
  success: true,
  message: "If the account has a verified e-mail address, a reset link is on its way",
});

const CONTRACT: RouteContract = {
  body: { schema: z.looseObject({ username: z.string().max(MAX_USERNAME_LENGTH) }), media: ["json", "form"] },
  responses: {
    202: jsonAnswer(
      "The same answer for every name (known or not, throttled or not); the link, if any, is mailed later",
      z.object({ success: z.literal(true), message: z.string() }),
    ),
  },
  errors: ["VALIDATION_FAILED"],
};

const PAGE_CONTRACT: RouteContract = {
  responses: { 200: { description: "The page that asks for a reset link", media: "html" } },
};
const PAGE_POST_CONTRACT: RouteContract = {
  body: { schema: z.looseObject({ username: z.string() }), media: ["form"] },
  responses: {
    200: {
      description: "The same page for every name: a link is on its way if the account has an address",
      media: "html",
    },
    400: { description: "The page again, asking for a username", media: "html" },
  },
};

/** What the ForgotPasswordEndpoint reads. */
export interface ForgotPasswordOptions {
  users: UserRepository;
  /** The OTT generation limiter: a mailbox gets at most its budget of links, whatever their kind. */
  limiter: OttGenerationLimiter;
  /** The password-reset token service (the same single-use, 30-minute links an administrator sends). */
  resetTokens: OneTimeTokenService;
  /** The raw delivery: the message is addressed here, to the account's verified address only. */
  delivery: OneTimeTokenDelivery;
  /** The absolute reset link for a token value (the configured public URL, never Host). */
  resetLink: (tokenValue: string) => string;
  audit: AuditSink;
  logger: Logger;
  clock: Clock;
}

/**
 * "Forgot password": `POST /api/password/forgot {"username"}` (JSON or a form) answers 202 with one
 * fixed body for every name, before anything is looked up; the work runs after the answer: the
 * limiter (per name and per client address, shared with magic links, so a mailbox gets at most its
 * budget of links), the account, and only for an enabled account with an e-mail address (every
 * address on an account is verified: set by an administrator, or by the user through a mailed link)
 * a single-use link to `/reset-password`, mailed to that address (channel `password-forgot`).
 * Completing the reset sets a new security stamp and ends every session and token of the account.
 */
export class ForgotPasswordEndpoint {
  constructor(private readonly o: ForgotPasswordOptions) {}

  /** The one route: public, on every chain (as `/api/me` is). */
  routes(): ChainRoute[] {
    return [
      {
        method: "POST",
        path: FORGOT_PASSWORD_PATH,
        feature: "identity.password-forgot",
        access: "public",
        name: "identity.password-forgot",
        description: "Mails a password-reset link to the account's verified address, if it has one",
        meta: { contract: CONTRACT },
        handler: (exchange) => this.handle(exchange),
      },
      ...resourceRoutes(
        {
          path: FORGOT_PASSWORD_PAGE_PATH,
          feature: "identity.password-forgot",
          access: "public",
          handler: (exchange) => this.page(exchange),
        },
        {
          GET: {
            name: "identity.password-forgot.page",
            description: "Asks for a reset link",
            contract: PAGE_CONTRACT,
          },
          HEAD: {
            name: "identity.password-forgot.page",
            description: "Asks for a reset link",
            contract: PAGE_CONTRACT,
          },
          POST: {
            name: "identity.password-forgot.page-submit",
            description: "The page's form: the same work and one answer for every name",
            contract: PAGE_POST_CONTRACT,
          },
        },
        { name: "identity.password-forgot.page-other" },
      ),
    ];
  }

  private async handle(exchange: HttpExchange): Promise<void> {
    const username = usernameOf(await exchange.fields(["json", "form"]));
    if (username === undefined) {
      throw new PlatformError("VALIDATION_FAILED", "username must be 1 to 256 characters", {
        details: { fields: ["username"] },
      });
    }
    this.accept(exchange, username);
    exchange.response.headers.set("cache-control", "no-store");
    exchange.json(202, ACCEPTED);
  }

  /** The page (`GET`), or its form (`POST`, CSRF on a session chain): the same work as the JSON route. */
  private async page(exchange: HttpExchange): Promise<void> {
    exchange.response.headers.set("cache-control", "no-store");
    let outcome: "ask" | "sent" | "invalid" = "ask";
    if (exchange.method === "POST") {
      const username = usernameOf(await exchange.fields(["form"]));
      if (username !== undefined) this.accept(exchange, username);
      outcome = username === undefined ? "invalid" : "sent";
    } else if (exchange.method !== "GET" && exchange.method !== "HEAD") {
      exchange.response.headers.set("allow", "GET, HEAD, POST");
      throw new PlatformError("METHOD_NOT_ALLOWED", "Use GET or POST");
    }
    const page = renderForgotPasswordPage({
      processingUrl: FORGOT_PASSWORD_PAGE_PATH,
      csrfMeta: await csrfMetaTags(exchange),
      csrfInput: await csrfHiddenInput(exchange),
      outcome,
      loginUrl: "/login",
    });
    exchange.html(outcome === "invalid" ? 400 : 200, page);
  }

  /** Schedules the work after the answer: how long the lookup, the token and the mail take tells nothing. */
  private accept(exchange: HttpExchange, username: string): void {
    const remoteAddress = exchange.remoteAddress ?? "unknown";
    setImmediate(() => {
      this.send(username, remoteAddress).catch((error: unknown) => {
        this.o.logger.warn("password reset link not sent", {
          error: isPlatformError(error) ? error.code : "UNKNOWN",
        });
      });
    });
  }

  /** The work behind the answer: throttle, look up, mail (each outcome audited, never the name typed). */
  private async send(username: string, remoteAddress: string): Promise<void> {
    const verdict = await this.o.limiter.acquire({ username, remoteAddress });
    if (!verdict.allowed) {
      this.audit("denied", remoteAddress, { reason: "throttled", scope: verdict.scope });
      return;
    }
    const account = await this.o.users.findByUsername(username);
    if (!account?.enabled || account.email === undefined) {
      // Unknown, disabled, or no address: nothing is sent; the record does not say which.
      this.audit("failure", remoteAddress, { reason: "no-verified-address" });
      return;
    }
    const value = (await this.o.resetTokens.generate({ username: account.username })).getTokenValue();
    await this.o.delivery.deliver({
      username: account.username,
      to: account.email,
      token: value,
      link: this.o.resetLink(value),
      channel: PASSWORD_FORGOT_CHANNEL,
      at: this.o.clock.now(),
    });
    this.audit("success", remoteAddress, { userId: account.id }, account.username);
  }

  private audit(
    outcome: "success" | "failure" | "denied",
    remoteAddress: string,
    data: Record<string, unknown>,
    principal?: string,
  ): void {
    this.o.audit.record({
      type: "user.password-forgot",
      outcome,
      remoteAddress,
      ...(principal === undefined ? {} : { principal }),
      data,
    });
  }
}

/** The username field when it is 1 to 256 characters and not blank. */
function usernameOf(fields: Record<string, unknown>): string | undefined {
  const username = fields.username;
  if (typeof username !== "string" || username.trim() === "" || username.length > MAX_USERNAME_LENGTH)
    return undefined;
  return username;
}
