import { describe, expect, it } from "vitest";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { isPlatformError, PlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { AsepAttributes } from "../asep/security-error-handling.js";
import { servedByIdentity } from "../identity-error-catalog.test-support.js";
import { withChallengeAnswer } from "../asep/challenge-answer.js";
import { ExceptionTranslationFilter } from "../asep/exception-translation-filter.js";
import { type Authentication, setCurrentAuthentication } from "../authentication/authentication.js";
import { AuthorizationFilter } from "../http-security/authorization-filter.js";
import {
  type AuthorizationManager,
  authorizationRules,
  type StepUpChallenge,
} from "../http-security/authorization-manager.js";
import type { ContributedRule } from "../http-security/contributed-rule.js";
import { AuthorizeHttpRequests } from "../http-security/http-security.js";
import { MethodOptions } from "./method-options.js";
import { type SecurityRegistry, securityRegistry as registryOf } from "./security-registry.js";
import type { SecurityRegistryMethod } from "./security-registry-method.js";

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
/** The `.badge()` method a host's plugin would contribute (a SecurityRegistryMethod member). */
const badgeMethod: SecurityRegistryMethod = { name: "badge", create: () => new BadgeOptions() };
// The cast stands in for the declaration merging a module would write (kept out of the shared types).
type WithBadge = SecurityRegistry & {
  badge(customizer?: (o: BadgeOptions) => void): ReturnType<SecurityRegistry["form"]>;
};
const securityRegistry = () => registryOf([badgeMethod]) as WithBadge;

function codeAndMessage(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    if (isPlatformError(e)) return `${e.code}: ${e.message}`;
    throw e;
  }
  return "no error";
}

describe("a contributed DSL method (SecurityRegistryMethod)", () => {
  it("is a method of the registry it is given to, with the options' own validation and chain id", () => {
    const registry = securityRegistry();
    registry.badge((b) => b.named("lobby")).session();
    const config = registry.form().session().build();
    expect(config.chains.map((c) => [c.id, c.kind, c.options.orderValue])).toEqual([
      ["badge_lobby", "badge", 700],
      ["form", "form", 100],
    ]);
    const invalid = securityRegistry();
    invalid.badge().session();
    expect(codeAndMessage(() => invalid.build())).toBe("CONFIGURATION_INVALID: .badge() needs a name");
    const twice = securityRegistry();
    twice.badge((b) => b.named("x")).session();
    twice.badge((b) => b.named("x")).session();
    expect(codeAndMessage(() => twice.build())).toMatch(/^CONFIGURATION_INVALID: .*named badge_x/);
  });

  it("is given once for the same member and refuses another of its name or an existing method's", () => {
    expect(codeAndMessage(() => registryOf([badgeMethod, badgeMethod]))).toBe("no error");
    const other: SecurityRegistryMethod = { name: "badge", create: () => new BadgeOptions() };
    expect(codeAndMessage(() => registryOf([badgeMethod, other]))).toMatch(
      /^CONFIGURATION_INVALID: .*\.badge\(\)/,
    );
    const refused = ["form", "build", "use", "pending", "Badge"].filter((name) =>
      codeAndMessage(() => registryOf([{ name, create: () => new BadgeOptions() }])).startsWith(
        "CONFIGURATION_INVALID:",
      ),
    );
    expect(refused).toEqual(["form", "build", "use", "pending", "Badge"]);
  });

  it("is absent from a registry without it, whose call fails clearly instead of 'is not a function'", () => {
    const bare = registryOf() as WithBadge;
    expect(codeAndMessage(() => bare.badge())).toBe(
      "CONFIGURATION_INVALID: .badge() is not in the registry DSL of this platform: no installed plugin " +
        "contributes it; add the plugin that provides it",
    );
    // Generic probes still see nothing (awaiting or serialising a registry is no DSL call).
    expect((bare as unknown as { then?: unknown }).then).toBeUndefined();
    expect(bare.form().session().build().chains).toHaveLength(1);
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
/** The rule a host's plugin would contribute (a ContributedRule member). */
const alwaysStepUpRule: ContributedRule = { name: "alwaysStepUp", rule: alwaysStepUp as never };

async function run(
  started: object | undefined,
  request: { accept?: string; authorization?: string },
): Promise<HttpExchange> {
  const exchange = servedByIdentity(
    new HttpExchange({ method: "GET", url: "/account", headers: request, remoteAddress: "10.0.0.1" }),
  );
  setCurrentAuthentication(exchange, ANN);
  const authorize = new AuthorizeHttpRequests([alwaysStepUpRule]);
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
  it("adds a contributed rule to the platform's rules and rule builder, refusing a taken name", () => {
    expect((authorizationRules([alwaysStepUpRule]) as unknown as Record<string, unknown>).alwaysStepUp).toBe(
      alwaysStepUp,
    );
    expect(
      codeAndMessage(() => authorizationRules([{ name: "permitAll", rule: alwaysStepUp as never }])),
    ).toMatch(/^CONFIGURATION_INVALID/);
    const other: ContributedRule = { name: "alwaysStepUp", rule: alwaysStepUp as never };
    expect(codeAndMessage(() => authorizationRules([alwaysStepUpRule, other]))).toMatch(
      /^CONFIGURATION_INVALID/,
    );
    const authorize = new AuthorizeHttpRequests([alwaysStepUpRule]);
    (authorize.requestMatchers("/x") as unknown as Record<string, (ms: number) => unknown>).alwaysStepUp!(1);
    expect(authorize.rules).toHaveLength(1);
  });

  it("is absent from a builder without it: using it fails clearly, and recentFactor names mfaPlugin", () => {
    const url = new AuthorizeHttpRequests().requestMatchers("/x") as unknown as Record<string, () => unknown>;
    expect(codeAndMessage(() => url.alwaysStepUp!())).toMatch(
      /^CONFIGURATION_INVALID: \.alwaysStepUp\(\) is not in the static authorization rules of this platform/,
    );
    expect(codeAndMessage(() => url.recentFactor!())).toMatch(/add mfaPlugin \(from @keyward\/core\)/);
    expect(url.toJSON).toBeUndefined();
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
