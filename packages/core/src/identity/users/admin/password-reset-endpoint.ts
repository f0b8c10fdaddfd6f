import type { AuditSink } from "../../../kernel/audit-sink.js";
import type { AccountNotices } from "../../notices/account-notices.js";
import { isPlatformError, PlatformError } from "../../../kernel/platform-error.js";
import type { HttpExchange } from "../../../web/http-exchange.js";
import { type ChainRoute, resourceRoutes } from "../../chain/chain-route.js";
import { IDENTITY_CONTRACTS } from "../../identity-contracts.js";
import { csrfHiddenInput, csrfMetaTags } from "../../csrf/csrf-html.js";
import type { OneTimeTokenService } from "../../ott/one-time-token-service.js";
import type { PasswordHasher } from "../../password/password-hasher.js";
import type { UserRepository } from "../user-repository.js";
import { renderPasswordResetPage } from "./password-reset-page.js";
import { assertAcceptablePassword } from "./account-rules.js";
import { PASSWORD_RESET_PATH } from "./password-reset-tokens.js";

/** Longest token value looked at; longer ones are refused without a lookup. */
const MAX_RESET_TOKEN_LENGTH = 512;

/** Collaborators of the PasswordResetFilter. */
export interface PasswordResetEndpointOptions {
  tokens: OneTimeTokenService;
  users: UserRepository;
  hasher: PasswordHasher;
  /** Ends every sign-in of a user (sessions, refresh tokens, access tokens; see signOutEverywhereIn). */
  signOutEverywhere: (userId: string) => Promise<unknown>;
  /** A fresh security stamp: a new password ends every sign-in made with the old one. */
  newStamp: () => string;
  audit: AuditSink;
  /** Tells the user their password was changed (the address on the account, after the answer). */
  notices?: AccountNotices | undefined;
  /** Where the page sends the user afterwards. Default `/login`. */
  loginUrl?: string;
  /** The page and processing path. Default `/reset-password`. */
  path?: string;
}

/**
 * The target of a password-reset link: `GET <path>?token=` shows a form and never spends the token
 * (mail scanners open links); `POST <path>` with `token` and `password` (form or JSON) checks the
 * password first, then spends the token in one atomic step, sets the password and ends the
 * account's token sign-ins. A bad token answers 400 PASSWORD_RESET_TOKEN_INVALID whatever the reason
 * (unknown, expired, spent, or the account gone), so the answer reveals nothing.
 */
export class PasswordResetEndpoint {
  private readonly path: string;

  constructor(private readonly o: PasswordResetEndpointOptions) {
    this.path = o.path ?? PASSWORD_RESET_PATH;
  }

  /** `GET`/`HEAD` the page, `POST` the new password, any other method 405. */
  routes(feature: string): ChainRoute[] {
    return resourceRoutes(
      { path: this.path, feature, access: "reset-link", handler: (exchange) => this.handle(exchange) },
      {
        GET: {
          name: "identity.password-reset.page",
          description: "The password-reset form of a reset link",
          contract: IDENTITY_CONTRACTS.resetPage,
        },
        HEAD: {
          name: "identity.password-reset.page",
          description: "The password-reset form of a reset link",
          contract: IDENTITY_CONTRACTS.resetPage,
        },
        POST: {
          name: "identity.password-reset.submit",
          description: "Sets a new password with a reset link's token",
          contract: IDENTITY_CONTRACTS.resetSubmit,
        },
      },
      { name: "identity.password-reset.other" },
    );
  }

  /** Serves the page or takes the new password. */
  async handle(exchange: HttpExchange): Promise<void> {
    exchange.response.headers.set("cache-control", "no-store");
    exchange.response.headers.set("referrer-policy", "no-referrer");
    if (exchange.method === "GET" || exchange.method === "HEAD") {
      const token = exchange.query.get("token") ?? undefined;
      return this.page(
        exchange,
        token && token.length <= MAX_RESET_TOKEN_LENGTH ? token : undefined,
        undefined,
      );
    }
    if (exchange.method !== "POST") {
      exchange.response.headers.set("allow", "GET, HEAD, POST");
      throw new PlatformError("METHOD_NOT_ALLOWED", "Use GET or POST");
    }
    const fields = await exchange.fields();
    const token = typeof fields.token === "string" ? fields.token : "";
    try {
      assertAcceptablePassword(fields.password);
    } catch (error) {
      if (exchange.wantsJson()) throw error;
      return this.page(exchange, token, "weak", 400);
    }
    const account = await this.spend(token);
    if (!account) {
      this.o.audit.record({
        type: "user.password-reset",
        outcome: "failure",
        remoteAddress: exchange.remoteAddress,
      });
      if (exchange.wantsJson())
        throw new PlatformError("PASSWORD_RESET_TOKEN_INVALID", "The reset link is invalid or has expired");
      return this.page(exchange, undefined, "invalid", 400);
    }
    const passwordHash = await this.o.hasher.hash(fields.password as string);
    await this.store(account.id, account.securityStamp, passwordHash);
    await this.o.signOutEverywhere(account.id);
    this.o.audit.record({
      type: "user.password-reset",
      outcome: "success",
      principal: account.username,
      remoteAddress: exchange.remoteAddress,
      data: { userId: account.id },
    });
    this.o.notices?.send({
      username: account.username,
      kind: "password-reset",
      text: "The password of your account was changed with a reset link, and every sign-in was ended. If this was not you, reset it again and tell an administrator.",
    });
    if (exchange.wantsJson()) {
      exchange.json(200, { success: true });
      return;
    }
    return this.page(exchange, undefined, undefined, 200, true);
  }

  private async spend(token: string) {
    if (token === "" || token.length > MAX_RESET_TOKEN_LENGTH) return undefined;
    const spent = await this.o.tokens.consume({ tokenValue: token });
    const account = spent ? await this.o.users.findByUsername(spent.username) : undefined;
    // A disabled account's link is spent and refused: its password is the administrator's to set.
    return account?.enabled ? account : undefined;
  }

  // Compare-and-set with one retry (a concurrent sign-in may rehash the old password). A standing change
  // since the link was spent (an administrator set a password, disabled the account) wins: the link's
  // password is refused rather than written over the administrator's.
  private async store(id: string, stampAtSpend: string | undefined, passwordHash: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const account = await this.o.users.findById(id);
      try {
        if (!account?.enabled || account.securityStamp !== stampAtSpend)
          throw new PlatformError("PASSWORD_RESET_TOKEN_INVALID", "The reset link is invalid or has expired");
        await this.o.users.update({ ...account, passwordHash, securityStamp: this.o.newStamp() });
        return;
      } catch (error) {
        if (attempt === 0 && isPlatformError(error) && error.code === "CONFLICT") continue;
        throw error;
      }
    }
  }

  private async page(
    exchange: HttpExchange,
    token: string | undefined,
    error: "invalid" | "weak" | undefined,
    status = 200,
    done = false,
  ): Promise<void> {
    exchange.html(
      status,
      renderPasswordResetPage({
        processingUrl: this.path,
        // Empty when the chain has no CSRF protection.
        csrfMeta: await csrfMetaTags(exchange),
        csrfInput: await csrfHiddenInput(exchange),
        token,
        error,
        done,
        loginUrl: this.o.loginUrl ?? "/login",
      }),
    );
  }
}
