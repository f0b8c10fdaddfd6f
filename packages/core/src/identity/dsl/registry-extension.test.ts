import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { AsepAttributes } from "../asep/security-error-handling.js";
import { withChallengeAnswer } from "../asep/challenge-answer.js";
import { ExceptionTranslationFilter } from "../asep/exception-translation-filter.js";
import { type Authentication, setCurrentAuthentication } from "../authentication/authentication.js";
import { AuthorizationFilter } from "../http-security/authorization-filter.js";
import {
  type AuthorizationManager,
  contributeAuthorizationRule,
  rules,
  type StepUpChallenge,
} from "../http-security/authorization-manager.js";
import { AuthorizeHttpRequests } from "../http-security/http-security.js";
import { MethodOptions } from "./method-options.js";
import { extendSecurityRegistry, type SecurityRegistry, securityRegistry } from "./security-registry.js";

/** A host's own DSL method, contributed the way the MFA module contributes `.mfa()`. */
class BadgeOptions extends MethodOptions {
  readonly kind = "badge" as never;
  badgeName: string | undefined;
  constructor() {
    super(700);
  }
  named(name: string): this {
    this.badgeName = name;
    return this;
  }
  override validate(): void {
    if (!this.badgeName) throw new PlatformError("CONFIGURATION_INVALID", ".badge() needs a name");
  }
  override namedChainId(): string | undefined {
    return `badge_${this.badgeName}`;
  }
  override get contributedBy(): string {
    return "badgePlugin";
  }
}
const createBadge = () => new BadgeOptions();
// Casts stand in for the declaration merging a module would write (kept out of the shared types).
extendSecurityRegistry("badge" as never, createBadge as never);
type WithBadge = SecurityRegistry & {
  badge(customizer?: (o: BadgeOptions) => void): ReturnType<SecurityRegistry["form"]>;
};

function codeAndMessage(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    if (isPlatformError(e)) return `${e.code}: ${e.message}`;
    throw e;
  }
  return "no error";
}

describe("extendSecurityRegistry: a module's DSL method", () => {
  it("adds the method to every registry, with the options' own validation and chain id", () => {
    const registry = securityRegistry() as WithBadge;
    registry.badge((b) => b.named("lobby")).session();
    const config = registry.form().session().build();
    expect(config.chains.map((c) => [c.id, c.kind, c.options.orderValue])).toEqual([
      ["badge_lobby", "badge", 700],
      ["form", "form", 100],
    ]);
    const invalid = securityRegistry() as WithBadge;
    invalid.badge().session();
    expect(codeAndMessage(() => invalid.build())).toBe("CONFIGURATION_INVALID: .badge() needs a name");
    const twice = securityRegistry() as WithBadge;
    twice.badge((b) => b.named("x")).session();
    twice.badge((b) => b.named("x")).session();
    expect(codeAndMessage(() => twice.build())).toMatch(/^CONFIGURATION_INVALID: .*named badge_x/);
  });

  it("is idempotent for the same factory and refuses another one or an existing method", () => {
    expect(codeAndMessage(() => extendSecurityRegistry("badge" as never, createBadge as never))).toBe(
      "no error",
    );
    expect(
      codeAndMessage(() => extendSecurityRegistry("badge" as never, (() => new BadgeOptions()) as never)),
    ).toMatch(/^CONFIGURATION_INVALID: .*already has a \.badge\(\)/);
    expect(codeAndMessage(() => extendSecurityRegistry("form" as never, createBadge as never))).toMatch(
      /^CONFIGURATION_INVALID/,
    );
    expect(codeAndMessage(() => extendSecurityRegistry("build" as never, createBadge as never))).toMatch(
      /^CONFIGURATION_INVALID/,
    );
  });
});

const ANN: Authentication = {
  userId: "u1",
  username: "ann",
  authorities: [],
  method: "form",
  authenticatedAt: 0,
  factors: [],
};

/** A contributed rule that always asks for a step-up, built with a test challenge. */
function challenge(maxAgeMs: number): StepUpChallenge {
  return {
    maxAgeMs,
    error: (started) =>
      withChallengeAnswer(
        new PlatformError("INVALID_TOKEN", "prove it", { details: { ...(started ?? {}) } as never }),
        {
          browserRedirect: (started as { url?: string } | undefined)?.url,
          bearerError: "insufficient_user_authentication",
        },
      ),
  };
}
const alwaysStepUp = (maxAgeMs: number): AuthorizationManager => ({
  check: async () => ({ granted: false, reason: "test", stepUp: challenge(maxAgeMs) }),
});
contributeAuthorizationRule("alwaysStepUp" as never, alwaysStepUp as never);

async function run(
  started: object | undefined,
  request: { accept?: string; authorization?: string },
): Promise<HttpExchange> {
  const exchange = new HttpExchange({
    method: "GET",
    url: "/account",
    headers: request,
    remoteAddress: "10.0.0.1",
  });
  setCurrentAuthentication(exchange, ANN);
  const authorize = new AuthorizeHttpRequests();
  (authorize.anyRequest() as unknown as Record<string, (ms: number) => unknown>).alwaysStepUp!(60_000);
  const authorization = new AuthorizationFilter(
    authorize.rules,
    new InMemoryAuditSink(10, new ManualClock()),
    async () => started,
  );
  const translation = new ExceptionTranslationFilter({
    handling: new AsepAttributes().toHandling(),
    loginPage: "/login",
    saveRequest: undefined,
    bearer: false,
  });
  await translation.filter(exchange, () => authorization.filter(exchange, async () => {}));
  return exchange;
}

describe("contributed rules and step-up challenges: identity's generic hooks", () => {
  it("adds a contributed rule to `rules` and to the rule builder, refusing a taken name", () => {
    expect((rules as unknown as Record<string, unknown>).alwaysStepUp).toBe(alwaysStepUp);
    expect(
      codeAndMessage(() => contributeAuthorizationRule("permitAll" as never, alwaysStepUp as never)),
    ).toMatch(/^CONFIGURATION_INVALID/);
    const authorize = new AuthorizeHttpRequests();
    (authorize.requestMatchers("/x") as unknown as Record<string, (ms: number) => unknown>).alwaysStepUp!(1);
    expect(authorize.rules).toHaveLength(1);
  });

  it("lets the challenge build the error with what the hook started, and answer it", async () => {
    const browser = await run({ url: "/mfa/start" }, { accept: "text/html" });
    expect([browser.response.status, browser.response.headers.get("location")]).toEqual([302, "/mfa/start"]);

    const api = await run({ url: "/mfa/start" }, { accept: "application/json" });
    expect(api.response.status).toBe(401);
    expect(api.response.body).toMatchObject({ code: "INVALID_TOKEN", url: "/mfa/start" });

    const bearer = await run({ url: "/mfa/start" }, { accept: "text/html", authorization: "Bearer x" });
    expect(bearer.response.status).toBe(401);
    expect(bearer.response.headers.get("www-authenticate")).toBe(
      'Bearer error="insufficient_user_authentication"',
    );
  });
});
