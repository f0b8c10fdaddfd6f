import type { AccountNotices } from "../../identity/notices/account-notices.js";
import { randomBytes } from "node:crypto";
import QRCode from "qrcode";
import type { Authentication } from "../../identity/authentication/authentication.js";
import type { ChainRoute } from "../../identity/chain/chain-route.js";
import type { AuditSink } from "../../kernel/audit-sink.js";
import type { Clock } from "../../kernel/clock.js";
import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import { requireFreshSecondFactor, type StepUpStarter } from "../../mfa/step-up/fresh-second-factor.js";
import {
  base32Of,
  matchedTotpStep,
  otpauthUri,
  TOTP_SECRET_BYTES,
  wellFormedTotpCode,
  type TotpParameters,
} from "./totp-codes.js";
import { TOTP_CONTRACTS } from "./totp-contracts.js";
import type { TotpEnrolmentStore } from "./totp-enrolment-store.js";
import type { TotpSecretSeal } from "./totp-secret-seal.js";

/** Where the enrolment endpoints live. */
export const TOTP_ENROLMENT_URL = "/api/account/factors/totp";

/** Wrong codes a pending enrolment takes before it is removed (its secret then never counts). */
export const TOTP_CONFIRM_MAX_FAILURES = 5;

/** What the enrolment endpoints read. */
export interface TotpEnrolmentOptions {
  store: TotpEnrolmentStore;
  seal: TotpSecretSeal;
  clock: Clock;
  audit: AuditSink;
  parameters: TotpParameters;
  issuer: string;
  /** A second factor proved within this long is "fresh" (milliseconds). */
  stepUpMaxAgeMs: number;
  /** Starts a step-up for a caller whose second factor is not fresh (the MFA chain hook's), if any. */
  startStepUp: StepUpStarter;
  /** Tells the user when an app was added or removed (a fresh sign-in in other hands could do either). */
  notices: AccountNotices;
}

/**
 * The signed-in user's authenticator app: `POST` starts an enrolment (otpauth URI, base32 secret, QR
 * code as SVG), `POST /confirm {"code"}` activates it, `DELETE` removes it. Each needs a second factor
 * proved within `stepUpMaxAgeMs`; otherwise 401 MFA_CHALLENGE_REQUIRED with a started step-up.
 */
export class TotpEnrolmentEndpoints {
  constructor(private readonly o: TotpEnrolmentOptions) {}

  /** The three routes. */
  routes(): ChainRoute[] {
    const common = { feature: "mfa.totp", access: "authenticated" } as const;
    return [
      {
        ...common,
        method: "POST",
        path: TOTP_ENROLMENT_URL,
        name: "mfa.totp-enrol",
        meta: { contract: TOTP_CONTRACTS.enrol },
        description: "Starts enrolling an authenticator app (URI, secret, QR code)",
        handler: (x) => this.enrol(x),
      },
      {
        ...common,
        method: "POST",
        path: `${TOTP_ENROLMENT_URL}/confirm`,
        name: "mfa.totp-confirm",
        meta: { contract: TOTP_CONTRACTS.confirm },
        description: "Activates the enrolled authenticator app with one of its codes",
        handler: (x) => this.confirm(x),
      },
      {
        ...common,
        method: "DELETE",
        path: TOTP_ENROLMENT_URL,
        name: "mfa.totp-remove",
        meta: { contract: TOTP_CONTRACTS.remove },
        description: "Removes the signed-in user's authenticator app",
        handler: (x) => this.remove(x),
      },
    ];
  }

  private async enrol(exchange: HttpExchange): Promise<void> {
    const who = await this.freshCaller(exchange);
    const secret = new Uint8Array(randomBytes(TOTP_SECRET_BYTES));
    const sealed = this.o.seal.seal(secret, who.userId);
    if (
      !(await this.o.store.begin({ userId: who.userId, sealedSecret: sealed, createdAt: this.o.clock.now() }))
    ) {
      throw new PlatformError("CONFLICT", "An authenticator app is already set up; remove it first");
    }
    const uri = otpauthUri(secret, this.o.issuer, who.username, this.o.parameters);
    this.audited(exchange, who, "auth.mfa.totp.enrolment-started");
    exchange.response.headers.set("cache-control", "no-store");
    exchange.json(201, {
      otpauthUri: uri,
      secret: base32Of(secret),
      qrCodeSvg: await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 }),
      digits: this.o.parameters.digits,
      periodSeconds: this.o.parameters.periodSeconds,
    });
  }

  private async confirm(exchange: HttpExchange): Promise<void> {
    const who = await this.freshCaller(exchange);
    const fields = await exchange.fields(["json"]);
    const enrolment = await this.o.store.find(who.userId);
    if (!enrolment || enrolment.confirmed) {
      throw new PlatformError("CONFLICT", "No authenticator app enrolment is waiting for confirmation");
    }
    const secret = this.o.seal.open(enrolment.sealedSecret, who.userId);
    const step = secret && matchedTotpStep(secret, fields.code, this.o.clock.now(), this.o.parameters);
    if (
      step === undefined ||
      !secret ||
      !(await this.o.store.confirm(who.userId, enrolment.sealedSecret, step))
    ) {
      this.audited(exchange, who, "auth.mfa.totp.confirm-failed", "failure");
      // Only a well-formed wrong code counts toward the cap: malformed input changes nothing.
      const counted = wellFormedTotpCode(fields.code, this.o.parameters.digits) !== undefined;
      const { userId } = who;
      if (
        counted &&
        (await this.o.store.recordConfirmFailure(userId, enrolment.sealedSecret, TOTP_CONFIRM_MAX_FAILURES))
      ) {
        this.audited(exchange, who, "auth.mfa.totp.enrolment-voided", "failure");
        throw new PlatformError("TOO_MANY_ATTEMPTS", "Too many wrong codes: start the enrolment again", {
          details: { retryAfterSeconds: 0 },
        });
      }
      throw new PlatformError("VALIDATION_FAILED", "The code is not valid", {
        details: { fields: ["code"] },
      });
    }
    this.audited(exchange, who, "auth.mfa.totp.enrolled");
    this.o.notices.send({
      username: who.username,
      kind: "totp-enrolled",
      text: "An authenticator app was set up as a second factor on your account. If this was not you, remove it from your account and change your password.",
    });
    exchange.json(200, { enrolled: true });
  }

  private async remove(exchange: HttpExchange): Promise<void> {
    const who = await this.freshCaller(exchange);
    if (!(await this.o.store.remove(who.userId))) {
      throw new PlatformError("NOT_FOUND", "No authenticator app is set up");
    }
    this.audited(exchange, who, "auth.mfa.totp.removed");
    this.o.notices.send({
      username: who.username,
      kind: "totp-removed",
      text: "The authenticator app was removed from your account. If this was not you, change your password.",
    });
    exchange.response.status = 204;
  }

  /** The caller, when signed in with a second factor proved recently enough; else a step-up. */
  private async freshCaller(exchange: HttpExchange): Promise<Authentication> {
    const { clock, stepUpMaxAgeMs: maxAgeMs, startStepUp } = this.o;
    return requireFreshSecondFactor(exchange, { clock, maxAgeMs, startStepUp });
  }

  private audited(
    exchange: HttpExchange,
    who: Authentication,
    type: string,
    outcome: "success" | "failure" = "success",
  ): void {
    this.o.audit.record({ type, principal: who.username, outcome, remoteAddress: exchange.remoteAddress });
  }
}
