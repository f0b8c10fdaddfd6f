import { z } from "zod";
import type { Authentication } from "../../identity/authentication/authentication.js";
import type { ChainRoute } from "../../identity/chain/chain-route.js";
import { csrfHiddenInput, csrfMetaTags } from "../../identity/csrf/csrf-html.js";
import type { OneTimeTokenDelivery } from "../../identity/ott/one-time-token-delivery.js";
import { checkEmailAddress } from "../../identity/users/email-address.js";
import type { UserRepository } from "../../identity/users/user-repository.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import type { Logger } from "../../kernel/logger.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import { jsonAnswer } from "../../web/contract-parts.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { requireFreshSecondFactor, type StepUpStarter } from "../step-up/fresh-second-factor.js";
import { EMAIL_CHANGE_LINK_TTL_MS, type EmailChange, type EmailChangeLinks } from "./email-change-links.js";
import { renderEmailChangePage } from "./email-change-page.js";

/** Where the signed-in user asks to change their address. */
export const EMAIL_CHANGE_URL = "/api/account/email";
/** The page a confirmation link opens (and where its form posts). */
export const EMAIL_VERIFY_PATH = "/verify-email";
/** The delivery channel of a confirmation link (sent to the new address). */
export const EMAIL_VERIFY_CHANNEL = "email-verify";

const CONTRACTS = {
  request: {
    body: { schema: z.object({ email: z.string().max(320) }), media: ["json"] },
    responses: {
      202: jsonAnswer(
        "A confirmation link is on its way to the new address; nothing changes until it is used",
        z.object({ success: z.literal(true), message: z.string() }),
      ),
    },
    errors: ["MFA_CHALLENGE_REQUIRED", "VALIDATION_FAILED", "CONFLICT"],
  },
  page: { responses: { 200: { description: "The confirmation page", media: "html" as const } } },
  confirm: {
    body: { schema: z.looseObject({ link: z.string() }), media: ["form", "json"] },
    responses: {
      200: {
        description: "The address was changed (a page; JSON callers `{ success: true }`)",
        media: "html" as const,
      },
    },
    errors: ["EMAIL_CHANGE_LINK_INVALID"],
  },
};

/** What the e-mail change endpoints read. */
export interface EmailChangeOptions {
  users: UserRepository;
  links: EmailChangeLinks;
  /** The raw delivery: a confirmation goes to the new address, the notice to the old one. */
  delivery: OneTimeTokenDelivery;
  clock: Clock;
  audit: AuditSink;
  logger: Logger;
  publicUrl: () => string;
  /** A second factor proved within this long is fresh (milliseconds). */
  stepUpMaxAgeMs: number;
  startStepUp: StepUpStarter;
  /** Voids the single-use links mailed for a user (reset and magic links went to the old address). */
  revokeMailedLinks: (username: string) => Promise<unknown>;
}

/**
 * The user's own e-mail address: `PUT /api/account/email {"email"}` (after a fresh second factor)
 * mails a confirmation link to the new address and changes nothing; the link's page
 * (`GET /verify-email`) never applies it; its form (`POST /verify-email`, CSRF on a session chain)
 * sets the address, only while the account's address is still the one the change was asked
 * against, and tells the old address. Every step is audited with the domains only.
 */
export class EmailChangeEndpoints {
  constructor(private readonly o: EmailChangeOptions) {}

  /** The request (signed in), the page and its form (public: the mailbox proves the address). */
  routes(): ChainRoute[] {
    const feature = "mfa.account-email";
    return [
      {
        method: "PUT",
        path: EMAIL_CHANGE_URL,
        feature,
        access: "authenticated",
        name: "mfa.email-change",
        description: "Asks to change the signed-in user's e-mail address (a link to the new one)",
        meta: { contract: CONTRACTS.request },
        handler: (x) => this.request(x),
      },
      ...(["GET", "HEAD"] as const).map((method) => ({
        method,
        path: EMAIL_VERIFY_PATH,
        feature,
        access: "public" as const,
        name: "mfa.email-verify-page",
        description: "The page of an e-mail change's confirmation link (never applies it)",
        meta: { contract: CONTRACTS.page },
        handler: (x: HttpExchange) => this.page(x, x.query.get("link") ?? undefined, "ask"),
      })),
      {
        method: "POST",
        path: EMAIL_VERIFY_PATH,
        feature,
        access: "public",
        name: "mfa.email-verify",
        description: "Applies an e-mail change with its confirmation link",
        meta: { contract: CONTRACTS.confirm },
        handler: (x) => this.confirm(x),
      },
    ];
  }

  private async request(exchange: HttpExchange): Promise<void> {
    const { clock, stepUpMaxAgeMs: maxAgeMs, startStepUp } = this.o;
    const who = await requireFreshSecondFactor(exchange, { clock, maxAgeMs, startStepUp });
    const fields = await exchange.fields(["json"]);
    const newEmail = checkEmailAddress(fields.email);
    const account = await this.o.users.findById(who.userId);
    if (!account) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    if (account.email?.toLowerCase() === newEmail.toLowerCase()) {
      throw new PlatformError("CONFLICT", "That is already your address");
    }
    const change: EmailChange = {
      userId: account.id,
      newEmail,
      oldEmail: account.email ?? null,
      accountVersion: account.version,
      expiresAt: clock.now() + EMAIL_CHANGE_LINK_TTL_MS,
    };
    const link = `${this.o.publicUrl().replace(/\/+$/, "")}${EMAIL_VERIFY_PATH}?link=${encodeURIComponent(this.o.links.seal(change))}`;
    this.later("confirmation", () =>
      this.o.delivery.deliver({
        username: account.username,
        to: newEmail,
        token: "",
        link,
        channel: EMAIL_VERIFY_CHANNEL,
        at: clock.now(),
      }),
    );
    this.audited(exchange, who, "user.email-change-requested", { domain: domainOf(newEmail) });
    exchange.response.headers.set("cache-control", "no-store");
    exchange.json(202, { success: true, message: "A confirmation link was sent to the new address" });
  }

  private async confirm(exchange: HttpExchange): Promise<void> {
    const fields = await exchange.fields(["form", "json"]);
    const change = this.o.links.open(fields.link, this.o.clock.now());
    const changed = change && (await this.apply(change));
    if (!changed) {
      this.o.audit.record({
        type: "user.email-changed",
        outcome: "failure",
        remoteAddress: exchange.remoteAddress,
      });
      if (exchange.wantsJson()) {
        throw new PlatformError("EMAIL_CHANGE_LINK_INVALID", "The link is invalid, expired or already used");
      }
      return this.page(exchange, undefined, "invalid", 400);
    }
    this.o.audit.record({
      type: "user.email-changed",
      outcome: "success",
      principal: changed.username,
      remoteAddress: exchange.remoteAddress,
      data: { userId: changed.id, domain: domainOf(changed.email ?? "") },
    });
    if (exchange.wantsJson()) {
      exchange.json(200, { success: true });
      return;
    }
    return this.page(exchange, undefined, "done");
  }

  /** Sets the new address while the old one is still the account's (one compare-and-set); tells the old one. */
  private async apply(change: EmailChange) {
    const account = await this.o.users.findById(change.userId);
    // The account as it was when the change was asked: any update since (another change applied, the
    // address set back, a new password) leaves the link dead, so it works once even across A→B→A.
    if (!account?.enabled || account.version !== change.accountVersion) return undefined;
    if ((account.email ?? null) !== change.oldEmail) return undefined;
    try {
      const updated = await this.o.users.update({ ...account, email: change.newEmail });
      await this.o.revokeMailedLinks(account.username);
      if (change.oldEmail !== null) {
        const to = change.oldEmail;
        this.later("notice", () =>
          this.o.delivery.deliver({
            username: account.username,
            to,
            token: "",
            link: `${this.o.publicUrl().replace(/\/+$/, "")}/account`,
            channel: "account-notice",
            notice: `Your account's e-mail address was changed to an address at ${domainOf(change.newEmail)}.`,
            at: this.o.clock.now(),
          }),
        );
      }
      return updated;
    } catch (error) {
      // Taken by another account meanwhile, or the account changed under us: the link does not apply.
      if (isPlatformError(error) && error.code === "CONFLICT") return undefined;
      throw error;
    }
  }

  private async page(
    exchange: HttpExchange,
    link: string | undefined,
    outcome: "ask" | "invalid" | "done",
    status = 200,
  ): Promise<void> {
    exchange.response.headers.set("cache-control", "no-store");
    exchange.response.headers.set("referrer-policy", "no-referrer");
    exchange.html(
      status,
      renderEmailChangePage({
        processingUrl: EMAIL_VERIFY_PATH,
        csrfMeta: await csrfMetaTags(exchange),
        csrfInput: await csrfHiddenInput(exchange),
        link: link !== undefined && link.length <= 1024 ? link : undefined,
        outcome,
      }),
    );
  }

  /** Runs `send` after the answer; a failure is logged by its code only. */
  private later(what: string, send: () => Promise<void>): void {
    setImmediate(() => {
      send().catch((error: unknown) => {
        this.o.logger.warn("e-mail change message not delivered", {
          message: what,
          error: isPlatformError(error) ? error.code : "UNKNOWN",
        });
      });
    });
  }

  private audited(
    exchange: HttpExchange,
    who: Authentication,
    type: string,
    data: Record<string, unknown>,
  ): void {
    this.o.audit.record({
      type,
      outcome: "success",
      principal: who.username,
      remoteAddress: exchange.remoteAddress,
      data: { userId: who.userId, ...data },
    });
  }
}

/** The part of an address after `@` (what the audit trail and the notice show). */
function domainOf(address: string): string {
  return address.slice(address.lastIndexOf("@") + 1);
}
