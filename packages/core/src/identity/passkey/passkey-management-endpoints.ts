import { PlatformError } from "../../kernel/platform-error.js";
import type { HttpExchange } from "../../web/http-exchange.js";
import type {
  PasskeyCredentialSummary,
  PasskeyRegisteredAnswer,
  PublicKeyCreationOptionsJson,
} from "../../web/wire/passkey-messages.js";
import { currentAuthentication } from "../authentication/authentication.js";
import type { SubjectStatusGate } from "../authentication/subject-status-check.js";
import type { ChainRoute } from "../chain/chain-route.js";
import { correlated } from "../events/correlated.js";
import type { PasskeyCredential } from "./passkey-credential.js";
import { noStoreJson, requireUser } from "./passkey-http.js";
import type { PasskeyService, PasskeyUser } from "./passkey-service.js";
import { setChallengeCookie, takeChallengeCookie } from "./webauthn-challenge-cookie.js";
import { IDENTITY_CONTRACTS } from "../identity-contracts.js";

/** URLs of the passkey management endpoints. */
export interface PasskeyManagementUrls {
  /** `POST`: creation options for the caller (default `/webauthn/register/options`). */
  registrationOptionsUrl: string;
  /** `POST`: store a new passkey; `DELETE <url>/{id}`: delete one (default `/webauthn/register`). */
  registrationUrl: string;
  /** `GET`: the caller's passkeys (default `/webauthn/credentials`). */
  credentialsUrl: string;
}

/** What the management endpoints show of a passkey (never the key or the counter). */
export type PasskeySummary = PasskeyCredentialSummary;

/** The management view of a stored passkey. */
export function passkeySummary(c: PasskeyCredential): PasskeySummary {
  return {
    id: c.id,
    label: c.label,
    createdAt: new Date(c.createdAt).toISOString(),
    lastUsedAt: c.lastUsedAt === undefined ? null : new Date(c.lastUsedAt).toISOString(),
    backedUp: c.backedUp,
    deviceType: c.deviceType,
    transports: [...c.transports],
  };
}

/**
 * The signed-in user's passkey management: `POST <registrationOptionsUrl>` (creation options, sets the
 * challenge cookie), `POST <registrationUrl>` with `{ response, label? }` or the bare
 * RegistrationResponseJSON (201 `{ id, label, createdAt }`), `GET <credentialsUrl>` (the caller's
 * passkeys), `DELETE <registrationUrl>/{id}` (204 for the caller's own; 404 NOT_FOUND for an unknown
 * id or another user's). Every endpoint throws AUTHENTICATION_REQUIRED without a signed-in user.
 */
export class PasskeyManagementEndpoints {
  constructor(
    private readonly urls: PasskeyManagementUrls,
    private readonly service: PasskeyService,
    /** Asked at the `credential` checkpoint before a passkey is added or removed (zero trust is one). */
    private readonly statusCheck?: SubjectStatusGate,
  ) {}

  /**
   * Its four routes. The delete route's `**` hands over the rest of the path as sent (an id with a
   * `/` or none at all is answered 404 NOT_FOUND).
   */
  routes(): ChainRoute[] {
    const u = this.urls;
    const common = { feature: "identity.passkey", access: "authenticated" } as const;
    return [
      {
        ...common,
        method: "POST",
        path: u.registrationOptionsUrl,
        name: "identity.passkey.registration-options",
        meta: { contract: IDENTITY_CONTRACTS.registrationOptions },
        description: "WebAuthn creation options for the signed-in user; sets the challenge cookie",
        handler: (exchange) => this.registrationOptions(exchange),
      },
      {
        ...common,
        method: "POST",
        path: u.registrationUrl,
        name: "identity.passkey.register",
        meta: { contract: IDENTITY_CONTRACTS.register },
        description: "Stores a new passkey for the signed-in user",
        handler: (exchange) => this.register(exchange),
      },
      {
        ...common,
        method: "GET",
        path: u.credentialsUrl,
        name: "identity.passkey.credentials",
        meta: { contract: IDENTITY_CONTRACTS.credentials },
        description: "Lists the signed-in user's passkeys",
        handler: (exchange) => this.list(exchange),
      },
      {
        ...common,
        method: "DELETE",
        path: `${u.registrationUrl}/**`,
        name: "identity.passkey.delete",
        meta: { contract: IDENTITY_CONTRACTS.deletePasskey },
        description: "Deletes one of the signed-in user's passkeys",
        handler: (exchange, params) => this.delete(exchange, params["**"] ?? ""),
      },
    ];
  }

  private async registrationOptions(exchange: HttpExchange): Promise<void> {
    const user = await this.changingUser(exchange);
    const issued = await this.service.registrationOptions(user);
    setChallengeCookie(exchange, issued.challengeId, this.service.challengeTtlMs);
    const options: PublicKeyCreationOptionsJson = issued.options;
    noStoreJson(exchange, 200, { ...options });
  }

  private async register(exchange: HttpExchange): Promise<void> {
    const user = await this.changingUser(exchange);
    const challengeId = takeChallengeCookie(exchange);
    const body = await exchange.fields(["json"]);
    // A bare RegistrationResponseJSON carries `rawId`; otherwise the body wraps it as `response`.
    const response = Object.hasOwn(body, "rawId") ? body : body.response;
    const stored = await this.service.verifyRegistration(user, challengeId, response, body.label, {
      remoteAddress: exchange.remoteAddress,
      ...correlated(exchange),
    });
    const answer: PasskeyRegisteredAnswer = {
      id: stored.id,
      label: stored.label,
      createdAt: new Date(stored.createdAt).toISOString(),
    };
    noStoreJson(exchange, 201, { ...answer });
  }

  /** The signed-in user about to change their credentials, once every status check lets them. */
  private async changingUser(exchange: HttpExchange): Promise<PasskeyUser> {
    const user = requireUser(exchange);
    const authentication = currentAuthentication(exchange);
    if (this.statusCheck && authentication) {
      await this.statusCheck({ checkpoint: "credential", authentication, exchange });
    }
    return user;
  }

  private async list(exchange: HttpExchange): Promise<void> {
    const user = requireUser(exchange);
    const credentials = await this.service.listCredentials(user.userId);
    noStoreJson(exchange, 200, credentials.map(passkeySummary));
  }

  private async delete(exchange: HttpExchange, id: string): Promise<void> {
    const user = await this.changingUser(exchange);
    if (id === "" || id.includes("/")) throw new PlatformError("NOT_FOUND", "No such passkey");
    await this.service.deleteCredential(user, id, {
      remoteAddress: exchange.remoteAddress,
      ...correlated(exchange),
    });
    exchange.response.status = 204;
    exchange.response.body = undefined;
    exchange.response.headers.set("cache-control", "no-store");
    exchange.response.committed = true;
  }
}
